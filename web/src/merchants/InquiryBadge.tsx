import { Intent, Tag, Tooltip } from '@blueprintjs/core';
import { INQUIRY_TEXTS, type InquiryVelocity } from '@mrn/contracts';
import { Link } from 'react-router-dom';
import { PATHS } from '../routing/paths.ts';

/** Several other funders in a week is the stacking warning; one or two is worth a look. */
export const inquiryIntent = (lastWeek: number): Intent =>
  lastWeek >= 3 ? Intent.DANGER : lastWeek >= 1 ? Intent.WARNING : Intent.NONE;

const funders = (n: number) => `${n} other ${n === 1 ? 'funder' : 'funders'}`;

/** "3 other funders in the last 7 days, 4 in 30 days, 6 in 90 days". */
export function inquirySummary(v: InquiryVelocity): string {
  return `${funders(v.last_7_days ?? 0)} in the last 7 days, ${v.last_30_days ?? 0} in 30 days, ${v.last_90_days ?? 0} in 90 days`;
}

/**
 * Inquiry velocity in a search result: the last 7 days' figure as a coloured tag, the three windows
 * and what they count in its tooltip and its accessible name. For BASIC, a PRO tag saying what PRO
 * would show (the figures are PRO's, issue 24).
 */
export function InquiryTag({ inquiries }: { inquiries: InquiryVelocity }) {
  if (!inquiries.available)
    return (
      <Tooltip content={<span className="mrn-tooltip-text">{INQUIRY_TEXTS.upgrade}</span>} placement="top">
        <Tag
          icon="lock"
          minimal
          tabIndex={0}
          aria-label={`Inquiry velocity: PRO only. ${INQUIRY_TEXTS.upgrade}`}
        >
          PRO
        </Tag>
      </Tooltip>
    );
  const week = inquiries.last_7_days ?? 0;
  const summary = inquirySummary(inquiries);
  return (
    <Tooltip
      content={
        <span className="mrn-tooltip-text">
          {summary}. {INQUIRY_TEXTS.what}
        </span>
      }
      placement="top"
    >
      <Tag
        intent={inquiryIntent(week)}
        minimal={week === 0}
        icon="people"
        tabIndex={0}
        aria-label={`Inquiries: ${summary}`}
      >
        {week} in 7 days
      </Tag>
    </Tooltip>
  );
}

/** Inquiry velocity on the merchant's page: the three windows side by side, or PRO's upgrade path. */
export function InquiryFigures({ inquiries }: { inquiries: InquiryVelocity }) {
  if (!inquiries.available)
    return (
      <p className="mrn-secondary mrn-inquiries-locked">
        {INQUIRY_TEXTS.upgrade} <Link to={PATHS.pro}>What PRO includes</Link>
      </p>
    );
  const windows = [
    ['7 days', inquiries.last_7_days ?? 0],
    ['30 days', inquiries.last_30_days ?? 0],
    ['90 days', inquiries.last_90_days ?? 0],
  ] as const;
  return (
    <div className="mrn-inquiries">
      <p className="mrn-visually-hidden">Inquiries: {inquirySummary(inquiries)}.</p>
      <ul className="mrn-inquiry-windows" aria-hidden="true">
        {windows.map(([label, n], i) => (
          <li key={label}>
            <Tag
              intent={i === 0 ? inquiryIntent(n) : Intent.NONE}
              minimal={i > 0 || n === 0}
              size="large"
              round
            >
              {n}
            </Tag>
            <span className="mrn-secondary">{label}</span>
          </li>
        ))}
      </ul>
      <p className="mrn-secondary">{INQUIRY_TEXTS.what}</p>
    </div>
  );
}
