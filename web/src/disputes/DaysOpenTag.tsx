import { Tag } from '@blueprintjs/core';
import { daysOpenBadge } from './days-open.ts';

/** "12 of 30 days", coloured by how close the dispute is to (or past) the target. */
export function DaysOpenTag({ days, resolved }: { days: number; resolved: boolean }) {
  const badge = daysOpenBadge(days, resolved);
  return (
    <Tag
      minimal
      intent={badge.intent}
      title={badge.title}
      icon={resolved ? undefined : 'time'}
      className="mrn-nowrap"
    >
      {badge.text}
      <span className="mrn-visually-hidden"> ({badge.title})</span>
    </Tag>
  );
}
