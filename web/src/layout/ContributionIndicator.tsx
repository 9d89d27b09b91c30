import { Tag, Tooltip } from '@blueprintjs/core';
import type { ContributionView } from '@mrn/contracts';
import { Link } from 'react-router-dom';
import { contributionIntent, formatContribution } from '../contribution/display.ts';
import { tooltipOf } from '../contribution/standing.ts';
import { PATHS } from '../routing/paths.ts';
import '../contribution/contribution.css';

/**
 * The funder's 90-day contribution (its fresh figure once the contribution view has answered, the
 * session's until then); a link to the contribution view, whose tooltip says briefly where the funder
 * stands: the deadline and what avoids it while warned, the lock, or what the figure is made of.
 */
export function ContributionIndicator({ percent, view }: { percent: number; view?: ContributionView }) {
  const figure = view?.total_ninety_days_contribution_percentage ?? percent;
  const tooltip = tooltipOf(view, figure);
  return (
    <Tooltip
      content={<span className="mrn-contribution-tooltip">{tooltip}</span>}
      placement="bottom"
      // Over a toast that is still showing (the sign-in one): what the member points at comes first.
      portalClassName="mrn-contribution-tooltip-portal"
    >
      <Link
        to={PATHS.contribution}
        className="mrn-contribution"
        aria-label={`90 DAY CONTRIBUTION ${formatContribution(figure)}`}
        aria-description={tooltip}
      >
        <span className="mrn-contribution-label">90 DAY CONTRIBUTION</span>
        {/* On a phone the full label does not fit beside the search; the figure still says what it is. */}
        <span className="mrn-contribution-label-short" aria-hidden="true">
          90 DAY
        </span>
        <Tag intent={contributionIntent(figure)} size="large" round>
          {formatContribution(figure)}
        </Tag>
      </Link>
    </Tooltip>
  );
}
