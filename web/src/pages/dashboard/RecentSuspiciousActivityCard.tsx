import { H4 } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useApiQuery } from '../../api/hooks.ts';
import { RecentNotesCard } from './RecentNotesCard.tsx';

const SUSPICIOUS = 'Suspicious Activity';
const SHOWN = 20;

/** The latest notes in category Suspicious Activity across the network (core spec §2). */
export function RecentSuspiciousActivityCard() {
  const recent = useApiQuery(routes.recentNotes, { query: { category: SUSPICIOUS, per_page: SHOWN } });

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
