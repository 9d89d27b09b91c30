import { Card } from '@blueprintjs/core';
import { DELETED_MERCHANT_SORT, type MerchantView, PAGE_SIZES, routes } from '@mrn/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { DataGrid, type GridColumn } from '../../grid/DataGrid.tsx';
import { displayEin, formatDate } from '../../merchants/format.ts';
import { deletedMerchantPath } from '../../routing/paths.ts';
import { ListState } from '../../ui/ListState.tsx';
import { PagedListToolbar } from '../../ui/PagedListToolbar.tsx';
import { useListParams } from '../../ui/use-list-params.ts';

const COLUMNS: GridColumn<MerchantView>[] = [
  {
    id: 'name',
    name: 'Name',
    width: 240,
    flex: 2,
    sort: 'name',
    text: (m) => m.legal_name,
    render: (m) => <Link to={deletedMerchantPath(m.resource_id)}>{m.legal_name}</Link>,
  },
  {
    id: 'ein',
    name: 'EIN/BN',
    width: 110,
    sort: 'ein',
    text: (m) => displayEin(m.fein),
    render: (m) => displayEin(m.fein),
  },
  {
    id: 'deleted',
    name: 'Deleted',
    width: 110,
    sort: 'deleted',
    text: (m) => formatDate(m.archived_at),
    render: (m) => formatDate(m.archived_at),
  },
  {
    id: 'reason',
    name: 'Reason for deletion',
    width: 280,
    flex: 3,
    text: (m) => m.reason ?? '—',
    render: (m) => m.reason ?? '—',
  },
];

/** Deleted merchants with their reason, sorted by name, EIN or date deleted; each row opens the deleted merchant (core spec §2). */
export function DeletedMerchantsTab() {
  const list = useListParams(PAGE_SIZES, PAGE_SIZES[0], DELETED_MERCHANT_SORT);
  const navigate = useNavigate();
  const deleted = useApiQuery(
    routes.listDeletedMerchants,
    {
      query: {
        page: list.page,
        per_page: list.perPage,
        search: list.search || undefined,
        ...list.sortQuery,
      },
    },
    { placeholderData: keepPreviousData, meta: { errorToast: true } },
  );
  const rows = deleted.data?.data ?? [];

  return (
    <div className="mrn-tab-panel">
      <PagedListToolbar
        list={list}
        pageSizes={PAGE_SIZES}
        query={deleted}
        searchPlaceholder="Search deleted merchants by EIN/BN or name"
      />
      <ListState
        isPending={deleted.isPending}
        error={deleted.error}
        isEmpty={rows.length === 0}
        emptyIcon="trash"
        emptyTitle={list.search ? 'No deleted merchants match this search' : 'No deleted merchants'}
      />
      {rows.length > 0 && (
        <Card className="mrn-table-card mrn-grid-card" elevation={1}>
          <DataGrid
            label="Deleted merchants"
            rows={rows}
            columns={COLUMNS}
            rowName={(m) => m.legal_name}
            onOpen={(m) => navigate(deletedMerchantPath(m.resource_id))}
            openOnClick
            stale={deleted.isPlaceholderData}
            resetKey={`${list.page}/${list.perPage}/${list.search}/${list.sortKey}`}
            sorting={list.sorting}
          />
        </Card>
      )}
    </div>
  );
}
