import { Card, Classes, H3, H4, HTMLTable } from '@blueprintjs/core';
import {
  SHOPPED_PAYLOAD_EXAMPLE,
  SIGNALS_CHANGED_PAYLOAD_EXAMPLE,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
} from '@mrn/contracts';
import {
  RETRY_SCHEDULE_TEXT,
  VERIFY_SNIPPET,
  VERIFY_WITH_LIBRARY_SNIPPET,
  WEBHOOK_HEADERS,
  WEBHOOK_PAYLOAD_EXAMPLE,
} from './webhook-verification.ts';

/** The Developer Guide's webhook section: payload, headers, signature verification, retries. */
export function WebhookGuide() {
  return (
    <Card elevation={1} className="mrn-webhook-guide">
      <H3>Subscription webhooks</H3>
      <p className={Classes.RUNNING_TEXT}>
        When another funder adds or updates a merchant or a note on an EIN you watch, a watched merchant is
        being shopped, or another funder's note changes its risk signals, your webhook address receives a{' '}
        <code>POST</code> with a JSON body. Answer with any 2xx status within 10 seconds; redirects are not
        followed. Messages follow the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>{' '}
        specification.
      </p>
      <pre className="mrn-code">{JSON.stringify(WEBHOOK_PAYLOAD_EXAMPLE, null, 2)}</pre>
      <H4>Event types</H4>
      <p className={Classes.RUNNING_TEXT}>
        The payload's <code>type</code> says what happened. Your administrators choose the types your address
        receives in the Account settings (all of them until they do; e-mail always gets every type).
      </p>
      <HTMLTable compact className="mrn-webhook-headers">
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Sent when</th>
          </tr>
        </thead>
        <tbody>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <tr key={type}>
              <td className="mrn-nowrap">
                <code>{type}</code>
              </td>
              <td>{WEBHOOK_EVENT_DESCRIPTIONS[type]}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <p className={Classes.RUNNING_TEXT}>
        A <code>merchant.shopped</code> payload carries the counts instead of a note:
      </p>
      <pre className="mrn-code">{JSON.stringify(SHOPPED_PAYLOAD_EXAMPLE, null, 2)}</pre>
      <p className={Classes.RUNNING_TEXT}>
        A <code>merchant.signals_changed</code> payload says which categories are new and whether a funder
        more reported the merchant, with its risk signals before and after the note (sent beside the{' '}
        <code>merchant.note_added</code> or <code>merchant.note_updated</code> of that note; never for your
        own notes):
      </p>
      <pre className="mrn-code">{JSON.stringify(SIGNALS_CHANGED_PAYLOAD_EXAMPLE, null, 2)}</pre>
      <H4>Headers</H4>
      <HTMLTable compact className="mrn-webhook-headers">
        <thead>
          <tr>
            <th scope="col">Header</th>
            <th scope="col">Meaning</th>
          </tr>
        </thead>
        <tbody>
          {WEBHOOK_HEADERS.map((h) => (
            <tr key={h.name}>
              <td>
                <code>{h.name}</code>
              </td>
              <td>{h.meaning}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <H4>Verifying the signature</H4>
      <p className={Classes.RUNNING_TEXT}>
        The signature is the base64 HMAC-SHA256 of <code>{'{webhook-id}.{webhook-timestamp}.{body}'}</code>,
        keyed by the base64-decoded part of your secret after <code>whsec_</code>. Your account administrators
        find the secret under Merchant Subscriptions → Webhook Logs, and can rotate it there; after a rotation
        the old secret keeps signing beside the new one for 24 hours. Refuse requests whose timestamp is more
        than 5 minutes away from your clock.
      </p>
      <pre className="mrn-code">{VERIFY_SNIPPET}</pre>
      <p className={Classes.RUNNING_TEXT}>Or with the Standard Webhooks library for JavaScript:</p>
      <pre className="mrn-code">{VERIFY_WITH_LIBRARY_SNIPPET}</pre>
      <H4>Retries</H4>
      <p className={Classes.RUNNING_TEXT}>
        A delivery that fails is tried again {RETRY_SCHEDULE_TEXT}, then given up. An address that has failed
        for 5 days is disabled and your administrators are e-mailed; saving the address again turns it back
        on. Every attempt is listed under Webhook Logs, where a delivery can be sent again with Redeliver.
      </p>
    </Card>
  );
}
