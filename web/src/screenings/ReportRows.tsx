import { Button, Card, H4, HTMLSelect, Intent, Tag } from '@blueprintjs/core';
import {
  routes,
  SCREENING_OUTCOMES,
  type ScreeningOutcome,
  type ScreeningRowView,
  SIGNAL_GROUP_LABELS,
  SIGNAL_GROUPS,
  type SignalGroup,
  type SignalWindow,
} from '@mrn/contracts';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { type RefObject, useEffect, useId, useRef } from 'react';
import { Link } from 'react-router-dom';
import { useApiQuery } from '../api/hooks.ts';
import { invalidateApiPaths } from '../api/invalidate.ts';
import { cityState, displayEin } from '../merchants/format.ts';
import { SignalsLine } from '../merchants/RiskSignals.tsx';
import { merchantPath } from '../routing/paths.ts';
import { DataTable } from '../ui/DataTable.tsx';
import { ListState } from '../ui/ListState.tsx';
import { Pager } from '../ui/Pager.tsx';
import { useDownload } from '../ui/use-download.ts';
import type { ListParams } from '../ui/use-list-params.ts';
import { downloadScreeningCsv } from './report-files.ts';
import { OUTCOME_LABELS, type ReportFilters, WINDOW_CHOICES } from './screening.ts';

export const ROW_PAGE_SIZES = [50, 100, 200] as const;
const COLUMNS = ['Merchant', 'Row', 'EIN/BN', 'Outcome', 'Risk Signals'];
/** How often the rows are asked again while the screening runs: they arrive a chunk at a time. */
const RUNNING_REFRESH_MS = 2_000;

const OUTCOME_INTENT: Record<ScreeningOutcome, Intent> = {
  found: Intent.PRIMARY,
  not_found: Intent.NONE,
  rejected: Intent.DANGER,
};

function RowCells({ row }: { row: ScreeningRowView }) {
  const m = row.merchant;
  return (
    <tr>
      <td className="mrn-cell-title" data-label="Merchant">
        {m ? (
          <>
            <Link to={merchantPath(m.resource_id)}>{m.legal_name}</Link>
            <div className="mrn-secondary mrn-small">
              {m.dba ? `DBA ${m.dba} · ` : ''}
              {cityState(m)}
            </div>
          </>
        ) : (
          <span className="mrn-secondary">
            {row.outcome === 'rejected' ? 'Not screened' : 'Not in the network'}
          </span>
        )}
      </td>
      <td data-label="Row" className="mrn-num">
        {row.row.toLocaleString('en-US')}
      </td>
      <td data-label="EIN/BN" className="mrn-nowrap">
        {row.fein ? (
          displayEin(row.fein)
        ) : (
          <code className="mrn-screen-input">{row.input === '' ? '(empty)' : row.input}</code>
        )}
      </td>
      <td data-label="Outcome">
        <Tag minimal intent={OUTCOME_INTENT[row.outcome]}>
          {OUTCOME_LABELS[row.outcome]}
        </Tag>
      </td>
      <td data-label="Risk Signals">
        {m && row.signals ? (
          <SignalsLine merchantId={m.resource_id} signals={row.signals} />
        ) : row.problem ? (
          <span className="mrn-screen-problem">{row.problem}</span>
        ) : (
          <span className="mrn-secondary">—</span>
        )}
      </td>
    </tr>
  );
}

/**
 * The report's rows, worst first (the server's order): merchants found by their worst category and
 * reporting funders, then EINs not found, then the rows not screened with their problem. Filtered by
 * outcome and by category in a window, paged; a found merchant opens its page and each signal its notes.
 */
export function ReportRows({
  screeningId,
  running,
  filters,
  list,
  cardRef,
}: {
  screeningId: string;
  running: boolean;
  filters: ReportFilters;
  list: ListParams;
  cardRef: RefObject<HTMLDivElement | null>;
}) {
  const queryClient = useQueryClient();
  const outcomeId = useId();
  const categoryId = useId();
  const windowId = useId();
  const rows = useApiQuery(
    routes.listScreeningRows,
    { params: { id: screeningId }, query: { page: list.page, per_page: list.perPage, ...filters } },
    {
      placeholderData: keepPreviousData,
      refetchInterval: running ? RUNNING_REFRESH_MS : false,
    },
  );
  // The last chunk's rows arrive with the screening's end: read them once more then.
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void invalidateApiPaths(queryClient, [routes.listScreeningRows.path]);
    wasRunning.current = running;
  }, [running, queryClient]);

  const rowsFile = useDownload();
  const filtered = filters.outcome !== undefined || filters.category !== undefined;
  const downloadRows = () => rowsFile.download('file', () => downloadScreeningCsv(screeningId, filters));

  const data = rows.data?.data ?? [];
  return (
    <Card className="mrn-table-card mrn-card mrn-screen-rows" elevation={1} ref={cardRef}>
      <div className="mrn-card-title-row">
        <H4>Report, worst first</H4>
        {filtered && !running && (
          <Button
            variant="minimal"
            icon="download"
            text="CSV of these rows"
            loading={rowsFile.downloading !== null}
            onClick={() => void downloadRows()}
          />
        )}
      </div>
      <div className="mrn-filters mrn-screen-filters">
        <span className="mrn-filter">
          <label htmlFor={outcomeId}>Outcome</label>
          <HTMLSelect
            id={outcomeId}
            value={filters.outcome ?? ''}
            onChange={(event) => list.setFilter('outcome', event.target.value)}
            options={[
              { value: '', label: 'All rows' },
              ...SCREENING_OUTCOMES.map((o) => ({ value: o, label: OUTCOME_LABELS[o] })),
            ]}
          />
        </span>
        <span className="mrn-filter">
          <label htmlFor={categoryId}>Category</label>
          <HTMLSelect
            id={categoryId}
            value={filters.category ?? ''}
            onChange={(event) => list.setFilter('category', event.target.value as SignalGroup | '')}
            options={[
              { value: '', label: 'Any category' },
              ...SIGNAL_GROUPS.map((g) => ({ value: g, label: SIGNAL_GROUP_LABELS[g] })),
            ]}
          />
        </span>
        <span className="mrn-filter">
          <label htmlFor={windowId}>Reported</label>
          <HTMLSelect
            id={windowId}
            value={filters.window}
            disabled={filters.category === undefined}
            title={filters.category === undefined ? 'Choose a category to narrow it to a window' : undefined}
            onChange={(event) => list.setFilter('window', event.target.value as SignalWindow)}
            options={WINDOW_CHOICES.map((w) => ({ value: w.value, label: w.phrase }))}
          />
        </span>
      </div>
      {rows.data && rows.data.pagination.total_count > 0 && (
        <div className="mrn-list-toolbar mrn-list-toolbar-end mrn-screen-pager">
          <Pager
            pagination={rows.data.pagination}
            onPageChange={list.setPage}
            pageSizes={ROW_PAGE_SIZES}
            onPageSizeChange={list.setPerPage}
            loading={rows.isPlaceholderData}
          />
        </div>
      )}
      <ListState
        isPending={rows.isPending}
        error={rows.error}
        isEmpty={data.length === 0}
        inTitledCard
        loadingLabel="Loading the report"
        emptyIcon={filtered ? 'filter-remove' : 'time'}
        emptyTitle={
          filtered
            ? 'No row matches these filters'
            : running
              ? 'EINs appear here as they are screened'
              : 'No rows'
        }
      />
      {data.length > 0 && (
        <DataTable caption="The screening's rows, worst first" columns={COLUMNS} className="mrn-screen-table">
          {data.map((r) => (
            <RowCells key={r.row} row={r} />
          ))}
        </DataTable>
      )}
      {rows.data && rows.data.pagination.total_pages > 1 && (
        <div className="mrn-list-toolbar mrn-list-toolbar-end mrn-screen-pager">
          <Pager
            pagination={rows.data.pagination}
            onPageChange={(page) => {
              list.setPage(page);
              cardRef.current?.scrollIntoView({ block: 'start' });
            }}
            loading={rows.isPlaceholderData}
          />
        </div>
      )}
    </Card>
  );
}
