import { H4 } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useApiQuery } from '../../api/hooks.ts';
import { SUSPICIOUS_ACTIVITY_REQUEST } from './dashboard-data.ts';
import { RecentNotesCard } from './RecentNotesCard.tsx';

/** The latest notes in category Suspicious Activity across the network (core spec §2). */
export function RecentSuspiciousActivityCard() {
  const recent = useApiQuery(routes.recentNotes, SUSPICIOUS_ACTIVITY_REQUEST);

  return (
    <RecentNotesCard
      heading={<H4>Recent Suspicious Activity</H4>}
      recent={recent}
      loadingLabel="Loading recent suspicious activity"
      emptyIcon="shield"
      emptyTitle="No suspicious activity reported yet"
      emptyDescription="Merchants recently reported with a Suspicious Activity note will be listed here."
      caption="Recent Suspicious Activity notes, newest first"
    />
  );
}
