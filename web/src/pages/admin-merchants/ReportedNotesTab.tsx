import { Card } from '@blueprintjs/core';
import {
  PAGE_SIZES,
  REPORTED_NOTE_SORT,
  REPORTED_PAGE_SIZES,
  type ReportedNoteView,
  routes,
} from '@mrn/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { DataGrid, type GridColumn } from '../../grid/DataGrid.tsx';
import { displayEin, formatDate } from '../../merchants/format.ts';
import { CategoryTag } from '../../merchants/table-cells.tsx';
import { merchantPath } from '../../routing/paths.ts';
import { ListState } from '../../ui/ListState.tsx';
import { PagedListToolbar } from '../../ui/PagedListToolbar.tsx';
import { useListParams } from '../../ui/use-list-params.ts';

const notePath = (n: ReportedNoteView) => merchantPath(n.merchant.resource_id, n.id);

const COLUMNS: GridColumn<ReportedNoteView>[] = [
  {
    id: 'name',
    name: 'Name',
    width: 180,
    flex: 2,
    sort: 'name',
    text: (n) => n.merchant.legal_name,
    render: (n) => <Link to={notePath(n)}>{n.merchant.legal_name}</Link>,
  },
  {
    id: 'ein',
    name: 'EIN/BN',
    width: 110,
    sort: 'ein',
    text: (n) => displayEin(n.merchant.fein),
    render: (n) => displayEin(n.merchant.fein),
  },
  {
    id: 'reported',
    name: 'Reported',
    width: 110,
    sort: 'reported',
    text: (n) => formatDate(n.reported_at),
    render: (n) => formatDate(n.reported_at),
  },
  {
    id: 'category',
    name: 'Category',
    width: 160,
    sort: 'category',
    text: (n) => n.category,
    render: (n) => <CategoryTag category={n.category} />,
  },
  {
    id: 'note',
    name: 'Note',
    width: 240,
    flex: 3,
    text: (n) => `${n.note} Reason: ${n.reason}`,
    render: (n) => (
      <div className="mrn-grid-lines">
        <span>{n.note}</span>
        <span className="mrn-secondary mrn-small">Reason: {n.reason}</span>
      </div>
    ),
  },
  {
    id: 'reported-by',
    name: 'Reported By',
    width: 170,
    flex: 1,
    sort: 'reported_by',
    text: (n) => n.reported_by,
    render: (n) => n.reported_by,
  },
];

/**
 * Notes whose authoring funder asked for deletion, 10/25/50/100 a page, sorted by any column but the
 * note (core spec §2). Each row opens
 * the merchant with the note highlighted, where the administrator can archive it.
 */
export function ReportedNotesTab() {
  const list = useListParams(REPORTED_PAGE_SIZES, PAGE_SIZES[0], REPORTED_NOTE_SORT);
  const navigate = useNavigate();
  const reported = useApiQuery(
    routes.listReportedNotes,
    { query: { page: list.page, per_page: list.perPage, ...list.sortQuery } },
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
        <Card className="mrn-table-card mrn-grid-card" elevation={1}>
          <DataGrid
            label="Reported notes"
            rows={rows}
            columns={COLUMNS}
            rowHeight={48}
            rowName={(n) => n.merchant.legal_name}
            onOpen={(n) => navigate(notePath(n))}
            openOnClick
            stale={reported.isPlaceholderData}
            resetKey={`${list.page}/${list.perPage}/${list.sortKey}`}
            sorting={list.sorting}
          />
        </Card>
      )}
    </div>
  );
}
