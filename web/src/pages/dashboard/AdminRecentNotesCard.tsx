import { H4 } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiQuery } from '../../api/hooks.ts';
import { Pager } from '../../ui/Pager.tsx';
import { recentNotesRequest } from './dashboard-data.ts';
import { RecentNotesCard } from './RecentNotesCard.tsx';

/** Platform administrators: the latest notes of every category, 200 per page (core spec §2, §9). */
export function AdminRecentNotesCard() {
  const [page, setPage] = useState(1);
  const recent = useApiQuery(routes.recentNotes, recentNotesRequest(page), {
    placeholderData: keepPreviousData,
  });

  return (
    <RecentNotesCard
      heading={
        <div className="mrn-card-title-row">
          <H4>Recent Notes (all categories)</H4>
          {recent.data && recent.data.pagination.total_count > 0 && (
            <Pager
              pagination={recent.data.pagination}
              onPageChange={setPage}
              loading={recent.isPlaceholderData}
            />
          )}
        </div>
      }
      recent={recent}
      loadingLabel="Loading recent notes"
      emptyIcon="annotation"
      emptyTitle="No notes yet"
      caption="Recent notes of every category, newest first"
      allCategories
    />
  );
}
