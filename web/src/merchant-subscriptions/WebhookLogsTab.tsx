import { Button, Intent, Tag } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/api-error.ts';
import { apiQueryKey, useApiMutation, useApiQuery } from '../api/hooks.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { displayEin, formatDateTime } from '../merchants/format.ts';
import { ListState } from '../ui/ListState.tsx';
import { TableCard } from '../ui/TableCard.tsx';
import { showError, showSuccess } from '../ui/toaster.ts';
import { SigningSecretCard } from './SigningSecretCard.tsx';
import { WebhookDeliveryDialog } from './WebhookDeliveryDialog.tsx';

/** In-state text of accounts §8. */
export const WEBHOOKS_LOAD_FAILED = 'Unable to load merchant subscription webhooks.';
const COLUMNS = ['Date', 'EIN/BN', 'Action', 'Status', 'Took', 'Next Retry', 'Attempts', 'Redeliver'];
/** A row waiting for its first attempt is already on its way: nothing to redeliver. */
const canRedeliver = (status: string) => status !== 'pending';

function DeliveryList() {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const logsKey = { params: { id: user.account_resource_id } };
  const [redelivering, setRedelivering] = useState<string | null>(null);
  const [details, setDetails] = useState<string | null>(null);
  const logs = useApiQuery(routes.listWebhookDeliveries, logsKey, {
    // While a redelivery is on its way, follow it until it has an outcome.
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === 'pending') ? 1500 : false),
  });
  const redeliver = useApiMutation(routes.redeliverWebhook, {
    onSuccess: (answer) => {
      queryClient.setQueryData(apiQueryKey(routes.listWebhookDeliveries, logsKey), (old) =>
        old && typeof old === 'object' && 'data' in old
          ? {
              data: (old as { data: (typeof answer.data)[] }).data.map((d) =>
                d.id === answer.data.id ? answer.data : d,
              ),
            }
          : old,
      );
      showSuccess(answer.message);
    },
    onError: (error) => showError(error.message),
    onSettled: () => setRedelivering(null),
  });
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
              <td data-label="Action">
                {log.action}
                <div className="mrn-secondary">
                  <code>{log.type}</code>
                </div>
              </td>
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
                  {log.http_status && log.status !== 'pending' ? ` (${log.http_status})` : ''}
                </Tag>
              </td>
              <td data-label="Took" className="mrn-nowrap">
                {log.duration_ms === null ? '—' : `${log.duration_ms} ms`}
              </td>
              <td data-label="Next Retry" className="mrn-nowrap">
                {log.status === 'failed' ? formatDateTime(log.next_retry) || '—' : '—'}
              </td>
              <td data-label="Attempts">
                <Button
                  size="small"
                  variant="minimal"
                  text={`${log.attempts} ${log.attempts === 1 ? 'attempt' : 'attempts'}`}
                  endIcon="chevron-right"
                  aria-label={`Attempts of the ${log.action} webhook of EIN ${displayEin(log.ein)}`}
                  onClick={() => setDetails(log.id)}
                />
              </td>
              <td data-label="Redeliver">
                <Button
                  size="small"
                  variant="outlined"
                  icon="send-message"
                  text="Redeliver"
                  aria-label={`Redeliver the ${log.action} webhook of EIN ${displayEin(log.ein)}`}
                  disabled={!canRedeliver(log.status) || (redelivering !== null && redelivering !== log.id)}
                  loading={redelivering === log.id}
                  onClick={() => {
                    setRedelivering(log.id);
                    redeliver.mutate({ params: { id: user.account_resource_id, delivery_id: log.id } });
                  }}
                />
              </td>
            </tr>
          ))}
        </TableCard>
      )}
      <WebhookDeliveryDialog deliveryId={details} onClose={() => setDetails(null)} />
    </>
  );
}

/** The Webhook Logs tab: deliveries to the account's webhook and their retries (accounts §2, §3). */
export function WebhookLogsTab() {
  return (
    <div className="mrn-subs-panel">
      <SigningSecretCard />
      <DeliveryList />
    </div>
  );
}
