import { H4 } from '@blueprintjs/core';
import { CONTRIBUTOR_PAGE_SIZES, routes } from '@mrn/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiQuery } from '../../../api/hooks.ts';
import { funderPath } from '../../../routing/paths.ts';
import { DataTable } from '../../../ui/DataTable.tsx';
import { Pager } from '../../../ui/Pager.tsx';
import { contributorsRequest } from '../dashboard-data.ts';
import { formatCount } from './format.ts';
import { WidgetTableCard } from './WidgetTableCard.tsx';

const COLUMNS = ['Name', 'Merchants Added', 'Notes Added'];

/**
 * Top or Bottom Contributors (accounts spec §2, §9): funders by merchants + notes added, 10 a page by
 * default (10/25/50/100).
 */
export function ContributorsCard({ direction }: { direction: 'top' | 'bottom' }) {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(CONTRIBUTOR_PAGE_SIZES[0]);
  const route = direction === 'top' ? routes.topContributors : routes.bottomContributors;
  const list = useApiQuery(route, contributorsRequest(page, perPage), { placeholderData: keepPreviousData });
  const title = direction === 'top' ? 'Top Contributors' : 'Bottom Contributors';
  const rows = list.data?.data ?? [];

  return (
    <WidgetTableCard
      title={title}
      heading={
        <div className="mrn-card-title-row">
          <H4>{title}</H4>
          {list.data && list.data.pagination.total_count > 0 && (
            <Pager
              pagination={list.data.pagination}
              onPageChange={setPage}
              pageSizes={CONTRIBUTOR_PAGE_SIZES}
              onPageSizeChange={(size) => {
                setPerPage(size);
                setPage(1);
              }}
              loading={list.isPlaceholderData}
            />
          )}
        </div>
      }
      query={list}
      isEmpty={rows.length === 0}
      loadingLabel={`Loading ${title.toLowerCase()}`}
      emptyIcon="people"
      emptyTitle="No funders yet"
    >
      <DataTable caption={`${title}: merchants and notes added per funder`} columns={COLUMNS}>
        {rows.map((c) => (
          <tr key={c.resource_id}>
            <td className="mrn-cell-title" data-label="Name">
              <Link to={funderPath(c.resource_id)}>{c.name}</Link>
            </td>
            <td data-label="Merchants Added" className="mrn-num">
              {formatCount(c.merchants_added)}
            </td>
            <td data-label="Notes Added" className="mrn-num">
              {formatCount(c.notes_added)}
            </td>
          </tr>
        ))}
      </DataTable>
    </WidgetTableCard>
  );
}
