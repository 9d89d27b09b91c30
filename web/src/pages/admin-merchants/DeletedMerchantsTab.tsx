import { PAGE_SIZES } from '@mrn/contracts/domain/notes';
import { routes } from '@mrn/contracts/routes/index';
import { keepPreviousData } from '@tanstack/react-query';
import { useApiQuery } from '../../api/hooks.ts';
import { DateCell, EinCell } from '../../merchants/table-cells.tsx';
import { deletedMerchantPath } from '../../routing/paths.ts';
import { LinkedRow } from '../../ui/LinkedRow.tsx';
import { ListState } from '../../ui/ListState.tsx';
import { PagedListToolbar } from '../../ui/PagedListToolbar.tsx';
import { TableCard } from '../../ui/TableCard.tsx';
import { useListParams } from '../../ui/use-list-params.ts';

const COLUMNS = ['Name', 'EIN/BN', 'Deleted', 'Reason for deletion'];

/** Deleted merchants with their reason; each row opens the deleted merchant (core spec §2). */
export function DeletedMerchantsTab() {
  const list = useListParams(PAGE_SIZES, PAGE_SIZES[0]);
  const deleted = useApiQuery(
    routes.listDeletedMerchants,
    { query: { page: list.page, per_page: list.perPage, search: list.search || undefined } },
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
        <TableCard caption="Deleted merchants" columns={COLUMNS} interactive>
          {rows.map((m) => (
            <LinkedRow key={m.resource_id} to={deletedMerchantPath(m.resource_id)} name={m.legal_name}>
              <EinCell fein={m.fein} />
              <DateCell label="Deleted" value={m.archived_at} />
              <td data-label="Reason for deletion">
                <span className="mrn-clamp">{m.reason ?? '—'}</span>
              </td>
            </LinkedRow>
          ))}
        </TableCard>
      )}
    </div>
  );
}
