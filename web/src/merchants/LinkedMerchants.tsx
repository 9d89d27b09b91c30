import { Button, Callout, Intent, Spinner, SpinnerSize, Tag, Tooltip } from '@blueprintjs/core';
import {
  LINKED_TEXTS,
  type LinkedMerchantView,
  routes,
  SIGNAL_GROUP_LABELS,
  SIGNAL_TEXTS,
} from '@mrn/contracts';
import { Link } from 'react-router-dom';
import { ApiError } from '../api/api-error.ts';
import { useApiQuery } from '../api/hooks.ts';
import { merchantPath, signalNotesPath } from '../routing/paths.ts';
import { displayEin, formatDate } from './format.ts';
import { CategoryTag } from './table-cells.tsx';
import { useMerchantSearch } from './use-merchant-search.tsx';

const SHARED_LABEL = { phone: 'Same phone', address: 'Same address' } as const;

/** What a match needs, said where the list is (issue 24: "say what an address match needs"). */
export const LINK_RULES =
  'Other EINs with the same business phone, or the same street number, street and city (suite and unit aside). A match is a lead, not proof.';

/**
 * Other EINs that are possibly the same business as this merchant: what they share and their latest note.
 * A search's answer (issue 30, item 6): for a merchant the account has not found by a search lately, the
 * section offers that search instead (it counts as one, like any other).
 */
export function LinkedMerchants({ merchantId, fein }: { merchantId: string; fein: string }) {
  const linked = useApiQuery(
    routes.listLinkedMerchants,
    { params: { id: merchantId } },
    { select: (a) => a.data, meta: { quietStatuses: [403, 404, 410] } },
  );
  const { search, searching, dialog } = useMerchantSearch();
  if (linked.isPending) return <Spinner size={SpinnerSize.SMALL} aria-label="Loading linked merchants" />;
  if (linked.error instanceof ApiError && linked.error.message === LINKED_TEXTS.searchFirst)
    return (
      <Callout intent={Intent.PRIMARY} icon="search" className="mrn-linked-search-first">
        <p>{LINKED_TEXTS.searchFirst}</p>
        <Button
          icon="search"
          loading={searching}
          onClick={() => void search(fein).then(() => linked.refetch())}
        >
          Search EIN {displayEin(fein)}
        </Button>
        {dialog}
      </Callout>
    );
  if (linked.isError)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {linked.error.message}
      </Callout>
    );
  return (
    <div className="mrn-linked">
      <p className="mrn-secondary">{LINK_RULES}</p>
      {linked.data.length === 0 ? (
        <p>No other EIN shares this merchant’s phone or address.</p>
      ) : (
        <ul className="mrn-linked-list" aria-label="Possibly the same business">
          {linked.data.map((m) => (
            <LinkedMerchantItem key={m.resource_id} merchant={m} />
          ))}
        </ul>
      )}
    </div>
  );
}

function LinkedMerchantItem({ merchant: m }: { merchant: LinkedMerchantView }) {
  return (
    <li>
      <div className="mrn-linked-head">
        <Link to={merchantPath(m.resource_id)}>{m.legal_name}</Link>
        <span className="mrn-ein mrn-secondary">{displayEin(m.fein)}</span>
      </div>
      {m.dba && <div className="mrn-secondary">DBA {m.dba}</div>}
      <div className="mrn-linked-facts">
        {m.shared.map((kind) => (
          <Tag key={kind} icon={kind === 'phone' ? 'phone' : 'map-marker'} intent={Intent.PRIMARY} minimal>
            {SHARED_LABEL[kind]}
          </Tag>
        ))}
        {m.worst_category ? (
          <Tooltip content={<span className="mrn-tooltip-text">{SIGNAL_TEXTS.linked}</span>} placement="top">
            <Link
              to={signalNotesPath(m.resource_id, m.worst_category, 'ever')}
              aria-label={`Worst reported: ${SIGNAL_GROUP_LABELS[m.worst_category]}`}
            >
              <Tag intent={Intent.DANGER} icon="warning-sign" minimal interactive>
                Worst: {SIGNAL_GROUP_LABELS[m.worst_category]}
              </Tag>
            </Link>
          </Tooltip>
        ) : null}
        {m.last_note_category ? <CategoryTag category={m.last_note_category} /> : <Tag minimal>No notes</Tag>}
        <span className="mrn-secondary">
          {m.city}, {m.state} · added {formatDate(m.created_at)}
        </span>
      </div>
    </li>
  );
}
