import { Callout, Card, H4, HTMLTable, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ADMIN_NOTES_PAGE_SIZE } from '@mrn/contracts/domain/notes';
import { routes } from '@mrn/contracts/routes/index';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { AddedBy } from '../../merchants/AddedBy.tsx';
import { categoryIntent } from '../../merchants/category-intent.ts';
import { displayEin, formatDate } from '../../merchants/format.ts';
import { merchantPath } from '../../routing/paths.ts';
import { Pager } from '../../ui/Pager.tsx';

/** Platform administrators: the latest notes of every category, 200 per page (core spec §2, §9). */
export function AdminRecentNotesCard() {
  const [page, setPage] = useState(1);
  const recent = useApiQuery(
    routes.recentNotes,
    { query: { page, per_page: ADMIN_NOTES_PAGE_SIZE } },
    { placeholderData: keepPreviousData },
  );

  return (
    <Card className="mrn-card mrn-table-card" elevation={1}>
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
      {recent.isPending ? (
        <Spinner aria-label="Loading recent notes" />
      ) : recent.isError ? (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {recent.error.message}
        </Callout>
      ) : recent.data.data.length === 0 ? (
        <NonIdealState icon="annotation" title="No notes yet" />
      ) : (
        <div className="mrn-table-scroll mrn-table-tall">
          <HTMLTable className="mrn-table mrn-table-stack mrn-sticky-head" striped compact>
            <caption className="mrn-visually-hidden">Recent notes of every category, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Merchant</th>
                <th scope="col">EIN/BN</th>
                <th scope="col">Category</th>
                <th scope="col">Date</th>
                <th scope="col">Added By</th>
                <th scope="col">Note</th>
              </tr>
            </thead>
            <tbody>
              {recent.data.data.map((note) => (
                <tr key={note.id}>
                  <td className="mrn-cell-title" data-label="Merchant">
                    <Link to={merchantPath(note.merchant.resource_id, note.id)}>
                      {note.merchant.legal_name}
                    </Link>
                  </td>
                  <td data-label="EIN/BN" className="mrn-nowrap">
                    {displayEin(note.merchant.fein)}
                  </td>
                  <td data-label="Category">
                    <Tag intent={categoryIntent(note.category)} minimal>
                      {note.category}
                    </Tag>
                  </td>
                  <td data-label="Date" className="mrn-nowrap">
                    {formatDate(note.created_at)}
                  </td>
                  <td data-label="Added By">
                    <AddedBy funder={note.added_by} user={note.added_by_user} />
                  </td>
                  <td data-label="Note">
                    <span className="mrn-clamp">{note.note}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </Card>
  );
}
