import { Callout, Intent, NonIdealState, Tag } from '@blueprintjs/core';
import { type RouteResponse, routes } from '@mrn/contracts';
import { Fragment } from 'react';
import { useApiQuery } from '../api/hooks.ts';
import { DataTable } from '../ui/DataTable.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { formatDateTime } from './format.ts';
import './merchant-history.css';

// Three columns, so the table fits beside a dispute at 1280 px: who acted is one cell (the person, their
// e-mail, their funder and on whose behalf, and where from).
const COLUMNS = ['When', 'What', 'By'];

/** "Dana Whitfield <dana@summit.example>" → the name and the address, shown on lines of their own. */
export function splitActor(actor: string): { name: string; email: string | null } {
  const match = /^(.*\S)\s*<([^<>]+)>$/.exec(actor);
  return match ? { name: match[1]!, email: match[2]! } : { name: actor, email: null };
}

/** An e-mail address that may wrap before its @ and after its dots, never inside a name. */
function Email({ address }: { address: string }) {
  const parts = address.split(/(?=@)|(?<=\.)/);
  return (
    <span className="mrn-secondary mrn-small mrn-history-email">
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed address, never reordered
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}

/** A summary with each EIN on one line: never "58-" at the end of one and "7654321" on the next. */
function Summary({ text }: { text: string }) {
  return text.split(/\b(\d{2}-\d{7})\b/).map((part, i) =>
    i % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed text, never reordered
      <span key={i} className="mrn-nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}

type HistoryEntry = RouteResponse<typeof routes.merchantHistory>['data'][number];

function Actor({ entry }: { entry: HistoryEntry }) {
  const person = entry.actor_user ? splitActor(entry.actor_user) : null;
  return (
    <div className="mrn-history-actor">
      <span>{person?.name ?? '—'}</span>
      {person?.email && <Email address={person.email} />}
      {entry.actor_account && (
        <span className="mrn-small">
          {entry.actor_account}
          {entry.on_behalf_of_account && (
            <span className="mrn-secondary"> on behalf of {entry.on_behalf_of_account}</span>
          )}
        </span>
      )}
      {entry.source && (
        <Tag minimal className="mrn-history-source">
          {entry.source}
        </Tag>
      )}
    </div>
  );
}

/** Platform administrators: the merchant's full history replayed from its events (DESIGN §1 audit replay). */
export function MerchantHistory({ merchantId }: { merchantId: string }) {
  const history = useApiQuery(
    routes.merchantHistory,
    { params: { id: merchantId } },
    { select: (a) => a.data },
  );
  if (history.isPending) return <PageSpinner label="Loading history" />;
  if (history.isError)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {history.error.message}
      </Callout>
    );
  if (history.data.length === 0) return <NonIdealState icon="history" title="No history recorded" />;

  return (
    <DataTable caption="Merchant history, oldest first" columns={COLUMNS} compact>
      {history.data.map((entry) => (
        <tr key={entry.revision}>
          <td data-label="When" className="mrn-cell-title mrn-nowrap">
            {formatDateTime(entry.recorded_at)}
          </td>
          <td data-label="What">
            {/* One element: on a phone the cell is a label and one value. */}
            <div>
              <div>
                <Summary text={entry.summary} />
              </div>
              <div className="mrn-secondary mrn-small">{entry.type}</div>
            </div>
          </td>
          <td data-label="By">
            <Actor entry={entry} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
