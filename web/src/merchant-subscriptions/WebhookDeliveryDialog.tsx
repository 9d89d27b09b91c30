import { Dialog, DialogBody, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { routes, type WebhookAttemptView } from '@mrn/contracts';
import { useApiQuery } from '../api/hooks.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { displayEin, formatDateTime } from '../merchants/format.ts';
import { DataTable } from '../ui/DataTable.tsx';
import { useReturnFocus } from '../ui/use-return-focus.ts';

/** Every attempt of one delivery: when, the HTTP code, the time taken, the error and the answer's first KB. */
export function WebhookDeliveryDialog({
  deliveryId,
  onClose,
}: {
  deliveryId: string | null;
  onClose: () => void;
}) {
  const user = useSignedInUser();
  const delivery = useApiQuery(
    routes.getWebhookDelivery,
    { params: { id: user.account_resource_id, delivery_id: deliveryId ?? '' } },
    {
      enabled: deliveryId !== null,
      // An attempt shows from its start: while one is being sent, its answer is a moment away.
      refetchInterval: (query) =>
        query.state.data?.data.attempts_log.some((a) => a.outcome === 'in_flight') ? 1000 : false,
    },
  );
  const d = delivery.data?.data;
  const returnFocus = useReturnFocus(deliveryId !== null);
  return (
    <Dialog
      {...returnFocus}
      isOpen={deliveryId !== null}
      onClose={onClose}
      title={d ? `${d.action} (${d.type}) · EIN ${displayEin(d.ein)}` : 'Webhook delivery'}
      icon="send-message"
      className="mrn-delivery-dialog"
    >
      <DialogBody>
        {delivery.isPending && <Spinner size={24} aria-label="Loading the attempts" />}
        {delivery.isError && (
          <NonIdealState icon="error" title="Unable to load merchant subscription webhooks." />
        )}
        {d && d.attempts_log.length === 0 && (
          <NonIdealState icon="time" title="Not attempted yet" description="It will be sent in a moment." />
        )}
        {d && d.attempts_log.length > 0 && (
          <>
            <p className="bp6-text-muted mrn-attempts-count">
              {d.attempts_log.length} {d.attempts_log.length === 1 ? 'attempt' : 'attempts'}, newest last
            </p>
            {/* A table at full width; on a phone each attempt is a small card of its own. */}
            <DataTable
              caption="Attempts, newest last"
              columns={ATTEMPT_COLUMNS}
              compact
              className="mrn-attempts"
            >
              {d.attempts_log.map((a) => (
                <tr key={a.attempt}>
                  <td data-label="#">{a.attempt}</td>
                  <td data-label="Time" className="mrn-nowrap">
                    {formatDateTime(a.at)}
                  </td>
                  <td data-label="Outcome">
                    <AttemptOutcome attempt={a} />
                  </td>
                  <td data-label="Took" className="mrn-nowrap">
                    {a.duration_ms === null ? '—' : `${a.duration_ms} ms`}
                  </td>
                  <td data-label="Answer (first KB)">
                    {a.response_body ? <pre className="mrn-attempt-body">{a.response_body}</pre> : '—'}
                  </td>
                </tr>
              ))}
            </DataTable>
          </>
        )}
        {d && (
          <details className="mrn-delivery-payload">
            <summary>What was sent</summary>
            <pre className="mrn-code">{JSON.stringify(d.payload, null, 2)}</pre>
          </details>
        )}
      </DialogBody>
    </Dialog>
  );
}

const ATTEMPT_COLUMNS = ['#', 'Time', 'Outcome', 'Took', 'Answer (first KB)'];

const OUTCOME_INTENT: Record<WebhookAttemptView['outcome'], Intent> = {
  succeeded: Intent.SUCCESS,
  failed: Intent.DANGER,
  in_flight: Intent.PRIMARY,
  interrupted: Intent.WARNING,
};

/**
 * The attempt's HTTP code, or what is known of it: an attempt is logged when it starts, so one cut off
 * by a restart shows as interrupted (it may have arrived; the next attempt has the same webhook-id).
 */
function AttemptOutcome({ attempt: a }: { attempt: WebhookAttemptView }) {
  const label =
    a.outcome === 'in_flight'
      ? 'Sending…'
      : a.outcome === 'interrupted'
        ? 'Interrupted'
        : a.http_status
          ? `HTTP ${a.http_status}`
          : a.outcome === 'succeeded'
            ? 'sent'
            : 'failed';
  return (
    <>
      <Tag minimal intent={OUTCOME_INTENT[a.outcome]}>
        {label}
      </Tag>
      {a.outcome === 'interrupted' && (
        <div className="mrn-attempt-error">
          No answer was recorded: delivery stopped during this attempt. Your endpoint may have received it; a
          later attempt carries the same webhook-id.
        </div>
      )}
      {/* The error only when it says more than the tag: an endpoint's 500 is "HTTP 500" in both. */}
      {a.error && a.outcome === 'failed' && a.error !== label && (
        <div className="mrn-attempt-error">{a.error}</div>
      )}
    </>
  );
}
