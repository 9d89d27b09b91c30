import { Card, Classes, Spinner } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import type { ReactNode } from 'react';
import { useApiQuery } from '../../../api/hooks.ts';
import { type Retryable, RetryButton } from '../../../ui/RetryButton.tsx';
import { WHOLE_NETWORK_REQUEST } from '../dashboard-data.ts';
import { formatCount, formatUsdCents } from './format.ts';

/**
 * One figure. While it loads, a spinner; if the call fails, a dash and Retry: widget failures are quiet
 * (accounts spec §8), no toast and no error text, but the figure can be asked for again (issue 32).
 */
function StatCard({
  label,
  query,
  children,
}: {
  label: string;
  query: { isPending: boolean; isError: boolean } & Retryable;
  children: () => ReactNode;
}) {
  return (
    <Card elevation={1} className="mrn-stat-card" role="group" aria-label={label}>
      <div className={`${Classes.TEXT_MUTED} mrn-stat-label`}>{label}</div>
      <div className="mrn-stat-value" aria-busy={query.isPending}>
        {query.isPending ? (
          <Spinner size={20} aria-label={`Loading ${label.toLowerCase()}`} />
        ) : query.isError ? (
          <span className="mrn-stat-failed">
            <span aria-hidden="true">—</span>
            <span className="mrn-visually-hidden">not available</span>
            <RetryButton query={query} what={label} small />
          </span>
        ) : (
          children()
        )}
      </div>
    </Card>
  );
}

const select = <T,>(answer: { data: T }) => answer.data;

/** Network totals for platform administrators (accounts spec §2 "Widgets"). */
export function StatCards() {
  const merchants = useApiQuery(routes.totalMerchants, WHOLE_NETWORK_REQUEST, { select });
  const notes = useApiQuery(routes.totalNotes, WHOLE_NETWORK_REQUEST, { select });
  const members = useApiQuery(routes.totalMembers, undefined, { select });
  const users = useApiQuery(routes.totalUsers, undefined, { select });
  const revenue = useApiQuery(routes.totalMonthlyRevenue, undefined, { select });

  return (
    <div className="mrn-stat-grid">
      <StatCard label="Total Merchants" query={merchants}>
        {() => formatCount(merchants.data!.total_merchants)}
      </StatCard>
      <StatCard label="Total Notes" query={notes}>
        {() => formatCount(notes.data!.total_notes)}
      </StatCard>
      <StatCard label="Members" query={members}>
        {() => (
          <>
            {formatCount(members.data!.count)}
            <span className={`${Classes.TEXT_MUTED} mrn-stat-detail`}>
              Basic {formatCount(members.data!.basic)} · Pro {formatCount(members.data!.pro)}
            </span>
          </>
        )}
      </StatCard>
      <StatCard label="Users" query={users}>
        {() => formatCount(users.data!.total_users)}
      </StatCard>
      <StatCard label="Monthly Revenue" query={revenue}>
        {() => (
          <>
            {formatUsdCents(revenue.data!.total_monthly_revenue)}
            <span className={`${Classes.TEXT_MUTED} mrn-stat-detail`}>
              {formatCount(revenue.data!.paying_members)} paid{' '}
              {revenue.data!.paying_members === 1 ? 'membership' : 'memberships'}
            </span>
          </>
        )}
      </StatCard>
    </div>
  );
}
