import { Card } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { RouteResponse, routes } from '@mrn/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { ApiError } from '../../api/api-error.ts';
import { AddedBy } from '../../merchants/AddedBy.tsx';
import { CategoryTag, DateCell, EinCell } from '../../merchants/table-cells.tsx';
import { merchantPath } from '../../routing/paths.ts';
import { DataTable } from '../../ui/DataTable.tsx';
import { ListState } from '../../ui/ListState.tsx';
import type { Retryable } from '../../ui/RetryButton.tsx';

type RecentNotes = RouteResponse<typeof routes.recentNotes>;

const COLUMNS = ['Merchant', 'EIN/BN', 'Date', 'Note'];
const ALL_CATEGORIES_COLUMNS = ['Merchant', 'EIN/BN', 'Category', 'Date', 'Added By', 'Note'];

interface RecentNotesCardProps {
  /** The card's title, with anything that sits beside it. */
  heading: ReactNode;
  recent: { isPending: boolean; error: ApiError | null; data?: RecentNotes } & Retryable;
  loadingLabel: string;
  emptyIcon: IconName;
  emptyTitle: string;
  emptyDescription?: string;
  caption: string;
  /**
   * Notes of every category, a long page of them: each row shows its category and author too, and the
   * table scrolls inside the card under a header that stays in view.
   */
  allCategories?: boolean;
}

/**
 * A dashboard card listing recent notes, each opening its merchant with the note highlighted; one that
 * failed to load says why, with Retry.
 */
export function RecentNotesCard({
  heading,
  recent,
  loadingLabel,
  emptyIcon,
  emptyTitle,
  emptyDescription,
  caption,
  allCategories = false,
}: RecentNotesCardProps) {
  const notes = recent.data?.data ?? [];
  return (
    <Card className="mrn-card mrn-table-card" elevation={1}>
      {heading}
      <ListState
        inTitledCard
        isPending={recent.isPending}
        error={recent.error}
        isEmpty={notes.length === 0}
        loadingLabel={loadingLabel}
        emptyIcon={emptyIcon}
        emptyTitle={emptyTitle}
        emptyDescription={emptyDescription}
        retry={recent}
      />
      {notes.length > 0 && (
        <DataTable
          caption={caption}
          columns={allCategories ? ALL_CATEGORIES_COLUMNS : COLUMNS}
          className={allCategories ? 'mrn-sticky-head' : undefined}
          scrollClassName={allCategories ? 'mrn-table-tall' : undefined}
          compact={allCategories}
        >
          {notes.map((note) => (
            <tr key={note.id}>
              <td className="mrn-cell-title" data-label="Merchant">
                <Link to={merchantPath(note.merchant.resource_id, note.id)}>{note.merchant.legal_name}</Link>
              </td>
              <EinCell fein={note.merchant.fein} />
              {allCategories && (
                <td data-label="Category">
                  <CategoryTag category={note.category} />
                </td>
              )}
              <DateCell label="Date" value={note.created_at} />
              {allCategories && (
                <td data-label="Added By">
                  <AddedBy funder={note.added_by} user={note.added_by_user} />
                </td>
              )}
              <td data-label="Note">
                <span className="mrn-clamp">{note.note}</span>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </Card>
  );
}
