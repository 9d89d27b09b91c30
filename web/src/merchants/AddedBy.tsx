import { Icon, Tooltip } from '@blueprintjs/core';

export const ADDER_HIDDEN_TOOLTIP = 'Only admin users for your company can see who entered this record';

/**
 * Who added a record: the funder, and the user when the caller may see it (platform admins and
 * admins of the authoring funder, core spec §6); otherwise the funder with an explaining tooltip.
 */
export function AddedBy({ funder, user }: { funder: string | null; user: string | null }) {
  if (!funder && !user) return <span className="mrn-secondary">Unknown</span>;
  if (user)
    return (
      <span>
        {funder && <span>{funder}</span>}
        {funder && ' · '}
        <span>{user}</span>
      </span>
    );
  return (
    <Tooltip content={ADDER_HIDDEN_TOOLTIP} placement="top">
      {/* A button so keyboard users reach the explanation too. */}
      <button type="button" className="mrn-adder-hidden" aria-description={ADDER_HIDDEN_TOOLTIP}>
        {funder} <Icon icon="info-sign" size={12} className="mrn-secondary" aria-hidden />
      </button>
    </Tooltip>
  );
}
