import { Intent, NonIdealState, Tag } from '@blueprintjs/core';
import type { RouteSpec } from '@mrn/contracts/http/route';
import { routes } from '@mrn/contracts/routes/index';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/api-error.ts';
import { call } from '../../api/client.ts';
import { useSignedInUser } from '../../auth/auth-context.ts';
import { displayEin, formatDateTime } from '../../merchants/format.ts';
import { ListState } from '../../ui/ListState.tsx';
import { TableCard } from '../../ui/TableCard.tsx';

/** In-state text of accounts §8. */
export const WEBHOOKS_LOAD_FAILED = 'Unable to load merchant subscription webhooks.';
const COLUMNS = ['Date', 'EIN/BN', 'Action', 'Status', 'Next Retry'];

/** A delivery of accounts §3: id, created_at, ein, action, status (failed or other), next_retry. */
interface WebhookLog {
  id: string;
  created_at: string;
  ein: string;
  action: string;
  status: string;
  next_retry: string | null;
}

/**
 * The delivery-log route (accounts §7: GET accounts/{account_id}/merchant_subscription_webhooks), once
 * the route table has it; looked up by path so the tab lights up without a change here.
 */
const webhookRoute: RouteSpec | undefined = Object.values(routes as Record<string, RouteSpec>).find(
  (r) => r.method === 'GET' && /\/merchant_subscription_webhooks$/.test(r.path),
);

function DeliveryList({ route }: { route: RouteSpec }) {
  const user = useSignedInUser();
  const id = user.account_resource_id;
  const logs = useQuery({
    queryKey: [route.method, route.path, { id, account_id: id }, null],
    queryFn: async ({ signal }) => {
      const answer = (await (call as (r: RouteSpec, req: unknown) => Promise<unknown>)(route, {
        params: { id, account_id: id },
        signal,
      })) as { data?: WebhookLog[] };
      return answer.data ?? [];
    },
  });
  const error = logs.error ? new ApiError(0, WEBHOOKS_LOAD_FAILED) : null;
  const rows = logs.data ?? [];
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
                <Tag minimal intent={log.status === 'failed' ? Intent.DANGER : Intent.SUCCESS}>
                  {log.status}
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
      {webhookRoute ? (
        <DeliveryList route={webhookRoute} />
      ) : (
        <NonIdealState
          className="mrn-empty-small"
          icon="send-message"
          title="No webhook deliveries yet"
          description="Webhook deliveries will be listed here."
        />
      )}
    </div>
  );
}
