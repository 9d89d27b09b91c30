import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  HTMLSelect,
  Intent,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import type { SubscriptionImportView } from '@mrn/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { ApiError } from '../api/api-error.ts';
import { DataGrid, type GridColumn } from '../grid/DataGrid.tsx';
import { useDownload } from '../ui/use-download.ts';
import { type ImportResultRow, type OutcomeKind, ResultsFormatError } from './import-results.ts';
import { downloadImportResults, loadImportResults } from './results-file.ts';
import './import-results.css';

type Filter = 'all' | OutcomeKind;

const numberFormat = new Intl.NumberFormat('en-US');
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All rows' },
  { value: 'imported', label: 'Imported' },
  { value: 'skipped', label: 'Skipped' },
  { value: 'error', label: 'Errors' },
];

const COLUMNS: GridColumn<ImportResultRow>[] = [
  {
    id: 'row',
    name: 'Row',
    width: 80,
    align: 'end',
    text: (r) => numberFormat.format(r.row),
    render: (r) => numberFormat.format(r.row),
  },
  { id: 'input', name: 'Input', width: 130, flex: 1, text: (r) => r.input, render: (r) => r.input || '—' },
  {
    id: 'outcome',
    name: 'Outcome',
    width: 280,
    flex: 2,
    text: (r) => r.outcome,
    // A plain span styled as a minimal tag: Blueprint's Tag measures its text after every render,
    // which costs a layout per cell while 100,000 rows scroll by.
    render: (r) => <span className={`mrn-outcome mrn-outcome-${r.kind}`}>{r.outcome}</span>,
  },
];

/** The grid's height: most of the window, leaving the dialog's title, filter and buttons in view. */
const gridHeight = () => Math.max(240, Math.min(560, window.innerHeight - 320));

/**
 * An import's results (row, input, outcome) in a virtualised grid, up to 100,000 rows, filtered by
 * outcome; the CSV stays a click away. Loaded on first use, with the table it draws.
 */
export function ImportResultsDialog({
  upload,
  onClose,
}: {
  upload: SubscriptionImportView;
  onClose: () => void;
}) {
  const filterId = useId();
  const [filter, setFilter] = useState<Filter>('all');
  const resultsFile = useDownload();
  const path = upload.results_file_url ?? '';
  const results = useQuery({
    queryKey: ['subscription-import-results', path],
    queryFn: ({ signal }) => loadImportResults(path, signal),
    // Results never change once written; a closed dialog lets them go after a minute.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: (count, error) => !(error instanceof ApiError || error instanceof ResultsFormatError) && count < 2,
    meta: { errorToast: true },
  });
  const data = results.data;
  const shown = useMemo(
    () => (!data ? [] : filter === 'all' ? data.rows : data.rows.filter((r) => r.kind === filter)),
    [data, filter],
  );

  const download = () => resultsFile.download('file', () => downloadImportResults(upload));

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={`Results of ${upload.file_name}`}
      icon="th"
      className="mrn-results-dialog"
    >
      <DialogBody useOverflowScrollContainer={false}>
        {results.isPending && <Spinner size={32} aria-label="Loading the results" />}
        {results.isError && (
          <Callout intent={Intent.DANGER} icon="error" role="alert">
            {results.error.message}
          </Callout>
        )}
        {data && (
          <div className="mrn-results">
            <div className="mrn-results-toolbar">
              <span className="mrn-filter">
                <label htmlFor={filterId}>Show</label>
                <HTMLSelect
                  id={filterId}
                  value={filter}
                  onChange={(event) => setFilter(event.target.value as Filter)}
                  options={FILTERS.map((f) => ({
                    value: f.value,
                    label: `${f.label} (${numberFormat.format(data.counts[f.value])})`,
                  }))}
                />
              </span>
              <span className="bp6-text-muted" aria-live="polite">
                {numberFormat.format(shown.length)} of {numberFormat.format(data.counts.all)} rows
              </span>
            </div>
            {shown.length === 0 ? (
              <NonIdealState
                icon="filter-remove"
                title={data.counts.all === 0 ? 'The file had no rows' : 'No rows with this outcome'}
                className="mrn-empty-small"
              />
            ) : (
              <DataGrid
                label={`Results of ${upload.file_name}`}
                rows={shown}
                columns={COLUMNS}
                rowHeight={32}
                height={gridHeight()}
                rowName={(r) => `Row ${numberFormat.format(r.row)}`}
                resetKey={filter}
              />
            )}
          </div>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Close" onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              icon="download"
              text="Download CSV"
              loading={resultsFile.downloading !== null}
              onClick={() => void download()}
            />
          </>
        }
      />
    </Dialog>
  );
}
