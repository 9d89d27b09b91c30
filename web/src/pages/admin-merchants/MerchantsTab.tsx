import { Button, Card, Intent, Tooltip } from '@blueprintjs/core';
import { MERCHANT_SORT, type MerchantView, PAGE_SIZES, routes } from '@mrn/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { DataGrid, type GridColumn } from '../../grid/DataGrid.tsx';
import { AddedBy } from '../../merchants/AddedBy.tsx';
import { DeleteMerchantDialog } from '../../merchants/DeleteMerchantDialog.tsx';
import { displayEin, formatDate } from '../../merchants/format.ts';
import { CategoryTag } from '../../merchants/table-cells.tsx';
import { merchantPath } from '../../routing/paths.ts';
import { ListState } from '../../ui/ListState.tsx';
import { PagedListToolbar } from '../../ui/PagedListToolbar.tsx';
import { useListParams } from '../../ui/use-list-params.ts';

const addedByText = (m: MerchantView) =>
  [m.added_by, m.added_by_user].filter(Boolean).join(' · ') || 'Unknown';

/** Every live merchant, 25/50/100 a page, sorted by name, EIN or date added, with Delete (core spec §2). */
export function MerchantsTab() {
  const list = useListParams(PAGE_SIZES, PAGE_SIZES[0], MERCHANT_SORT);
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<MerchantView | null>(null);
  const merchants = useApiQuery(
    routes.listMerchants,
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
  const rows = merchants.data?.data ?? [];

  const columns: GridColumn<MerchantView>[] = [
    {
      id: 'name',
      name: 'Name',
      width: 220,
      flex: 3,
      sort: 'name',
      text: (m) => (m.dba ? `${m.legal_name} (DBA ${m.dba})` : m.legal_name),
      render: (m) => (
        <div className="mrn-grid-lines">
          <Link to={merchantPath(m.resource_id)}>{m.legal_name}</Link>
          {m.dba && <span className="mrn-secondary mrn-small">DBA {m.dba}</span>}
        </div>
      ),
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
      id: 'added-by',
      name: 'Added By',
      width: 180,
      flex: 2,
      text: addedByText,
      render: (m) => <AddedBy funder={m.added_by} user={m.added_by_user} />,
    },
    {
      id: 'added',
      name: 'Added',
      width: 110,
      sort: 'added',
      text: (m) => formatDate(m.created_at),
      render: (m) => formatDate(m.created_at),
    },
    {
      id: 'latest-category',
      name: 'Latest Note Category',
      width: 0,
      flex: 1,
      text: (m) => m.last_note_category ?? '—',
      render: (m) => (m.last_note_category ? <CategoryTag category={m.last_note_category} /> : '—'),
    },
    {
      id: 'delete',
      name: 'Delete',
      width: 0,
      controls: true,
      text: () => 'Delete merchant',
      render: (m) => (
        <Tooltip content="Delete merchant" placement="left">
          <Button
            variant="minimal"
            size="small"
            intent={Intent.DANGER}
            icon="trash"
            aria-label={`Delete ${m.legal_name}`}
            onClick={() => setDeleting(m)}
          />
        </Tooltip>
      ),
    },
  ];

  return (
    <div className="mrn-tab-panel">
      <PagedListToolbar
        list={list}
        pageSizes={PAGE_SIZES}
        query={merchants}
        searchPlaceholder="Search by EIN/BN or name"
      />
      <ListState
        isPending={merchants.isPending}
        error={merchants.error}
        isEmpty={rows.length === 0}
        emptyIcon="shop"
        emptyTitle={list.search ? 'No merchants match this search' : 'No merchants yet'}
      />
      {rows.length > 0 && (
        <Card className="mrn-table-card mrn-grid-card" elevation={1}>
          <DataGrid
            label="Merchants"
            rows={rows}
            columns={columns}
            rowHeight={48}
            rowName={(m) => m.legal_name}
            onOpen={(m) => navigate(merchantPath(m.resource_id))}
            stale={merchants.isPlaceholderData}
            resetKey={`${list.page}/${list.perPage}/${list.search}/${list.sortKey}`}
            sorting={list.sorting}
          />
        </Card>
      )}
      <DeleteMerchantDialog merchant={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
