import { HTMLTable, Intent, Tag, Tooltip } from '@blueprintjs/core';
import {
  type MerchantSignals,
  SIGNAL_GROUP_CATEGORIES,
  SIGNAL_TEXTS,
  type SignalGroup,
  type SignalWindow,
} from '@mrn/contracts';
import type { MouseEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { signalNotesPath } from '../routing/paths.ts';
import { categoryIntent } from './category-intent.ts';
import { formatDate } from './format.ts';
import './risk-signals.css';

const intentOf = (group: SignalGroup): Intent => categoryIntent(SIGNAL_GROUP_CATEGORIES[group][0]);
const funders = (n: number) => `${n} ${n === 1 ? 'funder' : 'funders'}`;
const notes = (n: number) => `${n} ${n === 1 ? 'note' : 'notes'}`;
// In a search result's row, which opens the merchant when clicked: a signal's link opens its notes only.
const ownClick = (event: MouseEvent) => event.stopPropagation();

function Explained({ text, children }: { text: string; children: ReactNode }) {
  return (
    <Tooltip content={<span className="mrn-tooltip-text">{text}</span>} placement="top">
      {children}
    </Tooltip>
  );
}

/**
 * A search result's compact line of risk signals (issue 32): how many funders reported the merchant, its
 * worst groups with their counts (the last 90 days' in brackets), cured and disputes. Each group opens
 * the notes it was counted from on the merchant's page.
 */
export function SignalsLine({ merchantId, signals }: { merchantId: string; signals: MerchantSignals }) {
  if (signals.funders === 0 && signals.disputes.open + signals.disputes.resolved === 0)
    return <span className="mrn-secondary">No reports</span>;
  const shown = signals.categories.slice(0, 3);
  const more = signals.categories.length - shown.length;
  return (
    <span className="mrn-signals-line">
      <Explained text={SIGNAL_TEXTS.funders}>
        <Tag minimal icon="people" tabIndex={0} aria-label={`Reported by ${funders(signals.funders)}`}>
          {signals.funders}
        </Tag>
      </Explained>
      {shown.map((c) => (
        <Link
          key={c.group}
          to={signalNotesPath(merchantId, c.group, 'ever')}
          onClick={ownClick}
          aria-label={`${c.label}: ${notes(c.ever)} ever, ${c.last_90_days} in the last 90 days`}
          title={SIGNAL_TEXTS.group(c.label)}
        >
          <Tag intent={intentOf(c.group)} minimal interactive multiline>
            {c.label} {c.ever}
            {c.last_90_days > 0 ? ` (${c.last_90_days} in 90 d)` : ''}
          </Tag>
        </Link>
      ))}
      {more > 0 && <span className="mrn-secondary">+{more} more</span>}
      {signals.cured_at && (
        <Link
          to={signalNotesPath(merchantId, 'satisfied', 'ever')}
          onClick={ownClick}
          title={SIGNAL_TEXTS.cured}
        >
          <Tag intent={Intent.SUCCESS} minimal interactive icon="tick">
            Cured {formatDate(signals.cured_at)}
          </Tag>
        </Link>
      )}
      {signals.disputes.open > 0 && (
        <Explained text={SIGNAL_TEXTS.disputes}>
          <Tag intent={Intent.PRIMARY} minimal tabIndex={0}>
            {signals.disputes.open} open {signals.disputes.open === 1 ? 'dispute' : 'disputes'}
          </Tag>
        </Explained>
      )}
    </span>
  );
}

const WINDOW_COLUMNS: readonly [SignalWindow, string, string, 'last_90_days' | 'last_12_months' | 'ever'][] =
  [
    ['90d', '90 days', '90 d', 'last_90_days'],
    ['12m', '12 months', '12 mo', 'last_12_months'],
    ['ever', 'Ever', 'Ever', 'ever'],
  ];

/**
 * The merchant page's risk signals, at its top: reporting funders, each group's counts by window (each
 * count opens the notes behind it), cured and disputes, every figure explained in a tooltip.
 */
export function SignalsPanel({ merchantId, signals }: { merchantId: string; signals: MerchantSignals }) {
  const { open, resolved } = signals.disputes;
  return (
    <section className="mrn-signals" aria-label="Risk signals">
      <div className="mrn-signals-head">
        <Explained text={SIGNAL_TEXTS.funders}>
          <Tag className="mrn-signals-funders" minimal size="large" icon="people" tabIndex={0}>
            Reported by <strong>{funders(signals.funders)}</strong>
          </Tag>
        </Explained>
        {signals.cured_at && (
          <Explained text={SIGNAL_TEXTS.cured}>
            <Link to={signalNotesPath(merchantId, 'satisfied', 'ever')}>
              <Tag intent={Intent.SUCCESS} icon="tick" interactive>
                Default cured {formatDate(signals.cured_at)}
              </Tag>
            </Link>
          </Explained>
        )}
        <Explained text={SIGNAL_TEXTS.disputes}>
          <Tag minimal={open === 0} intent={open > 0 ? Intent.PRIMARY : Intent.NONE} tabIndex={0}>
            Disputes: {open} open, {resolved} resolved
          </Tag>
        </Explained>
      </div>
      {signals.categories.length === 0 ? (
        <p className="mrn-secondary">{SIGNAL_TEXTS.none}</p>
      ) : (
        <HTMLTable compact className="mrn-signals-table">
          <thead>
            <tr>
              <th scope="col">Category</th>
              {WINDOW_COLUMNS.map(([window, label, short]) => (
                <th key={window} scope="col" className="mrn-signals-count" aria-label={label}>
                  <span className="mrn-signals-wide">{label}</span>
                  <span className="mrn-signals-narrow" aria-hidden="true">
                    {short}
                  </span>
                </th>
              ))}
              <th scope="col">Latest</th>
            </tr>
          </thead>
          <tbody>
            {signals.categories.map((c) => (
              <tr key={c.group}>
                <th scope="row">
                  <Explained text={SIGNAL_TEXTS.group(c.label)}>
                    <Tag intent={intentOf(c.group)} minimal multiline tabIndex={0}>
                      {c.label}
                    </Tag>
                  </Explained>
                </th>
                {WINDOW_COLUMNS.map(([window, label, , field]) => (
                  <td key={window} className="mrn-signals-count">
                    {c[field] > 0 ? (
                      <Link
                        to={signalNotesPath(merchantId, c.group, window)}
                        aria-label={`${c.label}, ${label}: ${notes(c[field])}`}
                      >
                        {c[field]}
                      </Link>
                    ) : (
                      <span className="mrn-secondary">0</span>
                    )}
                  </td>
                ))}
                <td className="mrn-signals-date">{formatDate(c.last_reported_at)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </section>
  );
}
