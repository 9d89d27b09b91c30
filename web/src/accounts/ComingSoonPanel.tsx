import { NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';

/** A tab whose feature arrives in a later release, clearly labelled as such. */
export function ComingSoonPanel({
  icon,
  title,
  description,
}: {
  icon: IconName;
  title: string;
  description: string;
}) {
  return (
    <NonIdealState
      className="mrn-coming-soon"
      icon={icon}
      title={`${title} — coming soon`}
      description={description}
    />
  );
}
