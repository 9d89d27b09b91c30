import { Tag, Tooltip } from '@blueprintjs/core';
import { MESSAGES } from '@mrn/contracts/domain/messages';
import { contributionIntent, formatContribution } from './contribution.ts';

/** The account's 90-day contribution; a button so keyboard users can reach its tooltip. */
export function ContributionIndicator({ percent }: { percent: number }) {
  return (
    <Tooltip content={MESSAGES.contributionTooltip} placement="bottom">
      <button
        type="button"
        className="mrn-contribution"
        aria-label={`90 DAY CONTRIBUTION ${formatContribution(percent)}`}
        aria-description={MESSAGES.contributionTooltip}
      >
        <span className="mrn-contribution-label">90 DAY CONTRIBUTION</span>
        {/* On a phone the full label does not fit beside the search; the figure still says what it is. */}
        <span className="mrn-contribution-label-short" aria-hidden="true">
          90 DAY
        </span>
        <Tag intent={contributionIntent(percent)} size="large" round>
          {formatContribution(percent)}
        </Tag>
      </button>
    </Tooltip>
  );
}
