import { Button, Icon, Intent, Tag } from '@blueprintjs/core';
import { routes, type SubscriptionImportView } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/api-error.ts';
import { useApiQuery } from '../api/hooks.ts';
import { invalidateApiPaths } from '../api/invalidate.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { formatDateTime } from '../merchants/format.ts';
import { ListState } from '../ui/ListState.tsx';
import { TableCard } from '../ui/TableCard.tsx';
import { showError } from '../ui/toaster.ts';
import { formatFileSize } from './file-size.ts';
import { downloadImportResults } from './results-file.ts';

const COLUMNS = ['Date', 'File', 'Size', 'Status', 'Processed?', 'Created', 'Skipped', 'Errors', 'Results'];
/** How often the list asks again while an import is queued or processing. */
export const IMPORTS_REFRESH_MS = 3_000;
const numberFormat = new Intl.NumberFormat('en-US');
// The results grid and its table are fetched on first use (from a pointer or focus on View), not with the tab.
const loadResultsDialog = () => import('./ImportResultsDialog.tsx');
const ImportResultsDialog = lazy(() => loadResultsDialog().then((m) => ({ default: m.ImportResultsDialog })));

const STATUS: Record<SubscriptionImportView['status'], { label: string; intent: Intent }> = {
  queued: { label: 'Queued', intent: Intent.NONE },
  processing: { label: 'Processing', intent: Intent.PRIMARY },
  done: { label: 'Done', intent: Intent.SUCCESS },
  failed: { label: 'Failed', intent: Intent.DANGER },
};

const running = (imports: readonly SubscriptionImportView[] | undefined) =>
  Boolean(imports?.some((i) => i.status === 'queued' || i.status === 'processing'));

function ResultsActions({
  upload,
  onView,
}: {
  upload: SubscriptionImportView;
  onView: (upload: SubscriptionImportView) => void;
}) {
  const [busy, setBusy] = useState(false);
  if (!upload.processed || !upload.results_file_url) return <span className="bp6-text-muted">—</span>;
  const download = async () => {
    setBusy(true);
    try {
      await downloadImportResults(upload);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401))
        showError(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="mrn-cell-actions">
      <Button
        variant="minimal"
        size="small"
        icon="th"
        text="View"
        aria-label={`View the results of ${upload.file_name}`}
        onPointerEnter={() => void loadResultsDialog()}
        onFocus={() => void loadResultsDialog()}
        onClick={() => onView(upload)}
      />
      <Button
        variant="minimal"
        size="small"
        icon="download"
        text="Download"
        loading={busy}
        aria-label={`Download the results of ${upload.file_name}`}
        onClick={() => void download()}
      />
    </span>
  );
}

/** The Uploads tab: the account's CSV imports, refreshed while any is still running. */
export function UploadsTab() {
  const user = useSignedInUser();
  const imports = useApiQuery(
    routes.listSubscriptionImports,
    { params: { id: user.account_resource_id } },
    {
      select: (answer) => answer.data,
      meta: { errorToast: true },
      refetchInterval: (query) => (running(query.state.data?.data) ? IMPORTS_REFRESH_MS : false),
    },
  );
  const rows = imports.data ?? [];
  const [viewing, setViewing] = useState<SubscriptionImportView | null>(null);
  // An import that has just finished added subscriptions: the list (and merchants' switches) are stale.
  const queryClient = useQueryClient();
  const wasRunning = useRef(false);
  const isRunning = running(imports.data);
  useEffect(() => {
    if (wasRunning.current && !isRunning)
      void invalidateApiPaths(queryClient, [routes.listMerchantSubscriptions.path, '/api/merchants']);
    wasRunning.current = isRunning;
  }, [isRunning, queryClient]);

  return (
    <div className="mrn-subs-panel">
      <ListState
        isPending={imports.isPending}
        error={imports.error}
        isEmpty={rows.length === 0}
        loadingLabel="Loading uploads"
        emptyIcon="upload"
        emptyTitle="No uploads yet"
        emptyDescription="CSV files uploaded from the Merchant Subscriptions tab are listed here."
      />
      {rows.length > 0 && (
        <TableCard caption="Uploads" columns={COLUMNS} className="mrn-table-middle">
          {rows.map((u) => {
            const status = STATUS[u.status];
            return (
              <tr key={u.id}>
                <td data-label="Date" className="mrn-nowrap">
                  {formatDateTime(u.created_at)}
                </td>
                <td data-label="File" className="mrn-cell-title mrn-subs-file">
                  {u.file_name}
                </td>
                <td data-label="Size" className="mrn-num mrn-nowrap">
                  {formatFileSize(u.file_size)}
                </td>
                <td data-label="Status">
                  <Tag minimal intent={status.intent}>
                    {status.label}
                  </Tag>
                </td>
                <td data-label="Processed?">
                  <Icon
                    icon={u.processed ? 'tick-circle' : 'time'}
                    intent={u.processed ? Intent.SUCCESS : Intent.NONE}
                    title={u.processed ? 'Processed' : 'Not processed yet'}
                  />
                </td>
                <td data-label="Created" className="mrn-num">
                  {u.processed ? numberFormat.format(u.imported) : '—'}
                </td>
                <td data-label="Skipped" className="mrn-num">
                  {u.processed ? numberFormat.format(u.skipped) : '—'}
                </td>
                <td data-label="Errors" className="mrn-num">
                  {u.processed ? numberFormat.format(u.errors) : '—'}
                </td>
                <td data-label="Results">
                  <ResultsActions upload={u} onView={setViewing} />
                </td>
              </tr>
            );
          })}
        </TableCard>
      )}
      {viewing && (
        <Suspense fallback={null}>
          <ImportResultsDialog upload={viewing} onClose={() => setViewing(null)} />
        </Suspense>
      )}
    </div>
  );
}
