import { Card, HTMLTable } from '@blueprintjs/core';
import { PAGE_SIZES } from '@mrn/contracts/domain/notes';
import { routes } from '@mrn/contracts/routes/index';
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { displayEin, formatDate } from '../../merchants/format.ts';
import { deletedMerchantPath } from '../../routing/paths.ts';
import { ListSearchBox } from '../../ui/ListSearchBox.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { useListParams } from '../../ui/use-list-params.ts';
import { ListState } from './ListState.tsx';

/** Deleted merchants with their reason; each row opens the deleted merchant (core spec §2). */
export function DeletedMerchantsTab() {
  const navigate = useNavigate();
  const list = useListParams(PAGE_SIZES, PAGE_SIZES[0]);
  const deleted = useApiQuery(
    routes.listDeletedMerchants,
    { query: { page: list.page, per_page: list.perPage, search: list.search || undefined } },
    { placeholderData: keepPreviousData, meta: { errorToast: true } },
  );
  const rows = deleted.data?.data ?? [];

  return (
    <div className="mrn-tab-panel">
      <div className="mrn-list-toolbar">
        <ListSearchBox
          key={list.search}
          value={list.search}
          onSearch={list.setSearch}
          placeholder="Search deleted merchants by EIN/BN or name"
        />
        {deleted.data && (
          <Pager
            pagination={deleted.data.pagination}
            onPageChange={list.setPage}
            pageSizes={PAGE_SIZES}
            onPageSizeChange={list.setPerPage}
            loading={deleted.isPlaceholderData}
          />
        )}
      </div>
      <ListState
        isPending={deleted.isPending}
        error={deleted.error}
        isEmpty={rows.length === 0}
        emptyIcon="trash"
        emptyTitle={list.search ? 'No deleted merchants match this search' : 'No deleted merchants'}
      />
      {rows.length > 0 && (
        <Card className="mrn-table-card" elevation={1}>
          <div className="mrn-table-scroll">
            <HTMLTable className="mrn-table mrn-table-stack" striped interactive>
              <caption className="mrn-visually-hidden">Deleted merchants</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">EIN/BN</th>
                  <th scope="col">Deleted</th>
                  <th scope="col">Reason for deletion</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((m) => (
                  <tr key={m.resource_id} onClick={() => navigate(deletedMerchantPath(m.resource_id))}>
                    <td className="mrn-cell-title" data-label="Name">
                      <Link to={deletedMerchantPath(m.resource_id)} onClick={(e) => e.stopPropagation()}>
                        {m.legal_name}
                      </Link>
                    </td>
                    <td data-label="EIN/BN" className="mrn-nowrap">
                      {displayEin(m.fein)}
                    </td>
                    <td data-label="Deleted" className="mrn-nowrap">
                      {formatDate(m.archived_at)}
                    </td>
                    <td data-label="Reason for deletion">
                      <span className="mrn-clamp">{m.reason ?? '—'}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        </Card>
      )}
    </div>
  );
}
