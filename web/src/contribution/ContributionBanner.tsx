import { Callout, Intent } from '@blueprintjs/core';
import type { SessionUser } from '@mrn/contracts';
import { Link, useLocation } from 'react-router-dom';
import { PATHS } from '../routing/paths.ts';
import { useOwnContribution } from './queries.ts';
import { noticeOf, standingOf } from './standing.ts';
import './contribution.css';

/**
 * On every page, for every member of a funder whose contribution is below the minimum with a warning
 * running (a warning banner) or locked out of search (a stronger one): the figure, the deadline, what
 * happens then, what avoids it, and the way to the contribution view (which says it in place, so not
 * there). Nothing while all is well.
 */
export function ContributionBanner({ user }: { user: SessionUser }) {
  const { data: view } = useOwnContribution(user);
  const { pathname } = useLocation();
  // The contribution view shows the same warning, with its figures, in place.
  if (!view || pathname === PATHS.contribution) return null;
  const notice = noticeOf(view);
  if (!notice) return null;
  const locked = standingOf(view) === 'locked';
  return (
    <div className="mrn-contribution-banner">
      <Callout
        intent={locked ? Intent.DANGER : Intent.WARNING}
        icon={locked ? 'lock' : 'warning-sign'}
        title={notice.title}
        role={locked ? 'alert' : 'status'}
        aria-label={locked ? 'Search locked' : 'Contribution warning'}
      >
        <p>{notice.body}</p>
        <Link to={PATHS.contribution} className="mrn-contribution-banner-link">
          See your contribution
        </Link>
      </Callout>
    </div>
  );
}
