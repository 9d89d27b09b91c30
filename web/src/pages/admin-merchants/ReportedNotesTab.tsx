import { PAGE_SIZES, REPORTED_PAGE_SIZES } from '@mrn/contracts/domain/notes';
import { routes } from '@mrn/contracts/routes/index';
import { keepPreviousData } from '@tanstack/react-query';
import { useApiQuery } from '../../api/hooks.ts';
import { CategoryTag, DateCell, EinCell } from '../../merchants/table-cells.tsx';
import { merchantPath } from '../../routing/paths.ts';
import { LinkedRow } from '../../ui/LinkedRow.tsx';
import { ListState } from '../../ui/ListState.tsx';
import { PagedListToolbar } from '../../ui/PagedListToolbar.tsx';
import { TableCard } from '../../ui/TableCard.tsx';
import { useListParams } from '../../ui/use-list-params.ts';

const COLUMNS = ['Name', 'EIN/BN', 'Reported', 'Category', 'Note', 'Reported By'];

/**
 * Notes whose authoring funder asked for deletion, 10/25/50/100 a page (core spec §2). Each row opens
 * the merchant with the note highlighted, where the administrator can archive it.
 */
export function ReportedNotesTab() {
  const list = useListParams(REPORTED_PAGE_SIZES, PAGE_SIZES[0]);
  const reported = useApiQuery(
    routes.listReportedNotes,
    { query: { page: list.page, per_page: list.perPage } },
    { placeholderData: keepPreviousData, meta: { errorToast: true } },
  );
  const rows = reported.data?.data ?? [];

  return (
    <div className="mrn-tab-panel">
      <PagedListToolbar list={list} pageSizes={REPORTED_PAGE_SIZES} query={reported} />
      <ListState
        isPending={reported.isPending}
        error={reported.error}
        isEmpty={rows.length === 0}
        emptyIcon="tick-circle"
        emptyTitle="No reported notes"
        emptyDescription="Deletion requests from funders appear here."
      />
      {rows.length > 0 && (
        <TableCard caption="Reported notes" columns={COLUMNS} interactive>
          {rows.map((n) => (
            <LinkedRow
              key={n.id}
              to={merchantPath(n.merchant.resource_id, n.id)}
              name={n.merchant.legal_name}
            >
              <EinCell fein={n.merchant.fein} />
              <DateCell label="Reported" value={n.reported_at} />
              <td data-label="Category">
                <CategoryTag category={n.category} />
              </td>
              <td data-label="Note">
                <span className="mrn-clamp">{n.note}</span>
                <div className="mrn-secondary mrn-small">Reason: {n.reason}</div>
              </td>
              <td data-label="Reported By">{n.reported_by}</td>
            </LinkedRow>
          ))}
        </TableCard>
      )}
    </div>
  );
}
