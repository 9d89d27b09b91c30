import { Intent, Tag } from '@blueprintjs/core';
import { routes } from '@mrn/contracts/routes/index';
import { ApiError } from '../../api/api-error.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { useSignedInUser } from '../../auth/auth-context.ts';
import { displayEin, formatDateTime } from '../../merchants/format.ts';
import { ListState } from '../../ui/ListState.tsx';
import { TableCard } from '../../ui/TableCard.tsx';

/** In-state text of accounts §8. */
export const WEBHOOKS_LOAD_FAILED = 'Unable to load merchant subscription webhooks.';
const COLUMNS = ['Date', 'EIN/BN', 'Action', 'Status', 'Next Retry'];

function DeliveryList() {
  const user = useSignedInUser();
  const logs = useApiQuery(routes.listWebhookDeliveries, { params: { id: user.account_resource_id } });
  const error = logs.error ? new ApiError(0, WEBHOOKS_LOAD_FAILED) : null;
  const rows = logs.data?.data ?? [];
  return (
    <>
      <ListState
        isPending={logs.isPending}
        error={error}
        isEmpty={rows.length === 0}
        loadingLabel="Loading webhook logs"
        emptyIcon="send-message"
        emptyTitle="No webhook deliveries yet"
        emptyDescription="Webhook deliveries will be listed here."
      />
      {rows.length > 0 && (
        <TableCard caption="Webhook logs" columns={COLUMNS} className="mrn-table-middle">
          {rows.map((log) => (
            <tr key={log.id}>
              <td data-label="Date" className="mrn-nowrap">
                {formatDateTime(log.created_at)}
              </td>
              <td data-label="EIN/BN" className="mrn-cell-title mrn-nowrap">
                <span className="mrn-ein">{displayEin(log.ein)}</span>
              </td>
              <td data-label="Action">{log.action}</td>
              <td data-label="Status">
                <Tag
                  minimal
                  intent={
                    log.status === 'failed' || log.status === 'dead'
                      ? Intent.DANGER
                      : log.status === 'succeeded'
                        ? Intent.SUCCESS
                        : Intent.NONE
                  }
                >
                  {log.status}
                  {log.http_status ? ` (${log.http_status})` : ''}
                </Tag>
              </td>
              <td data-label="Next Retry" className="mrn-nowrap">
                {log.status === 'failed' ? formatDateTime(log.next_retry) || '—' : '—'}
              </td>
            </tr>
          ))}
        </TableCard>
      )}
    </>
  );
}

/** The Webhook Logs tab: deliveries to the account's webhook and their retries (accounts §2, §3). */
export function WebhookLogsTab() {
  return (
    <div className="mrn-subs-panel">
      <DeliveryList />
    </div>
  );
}
