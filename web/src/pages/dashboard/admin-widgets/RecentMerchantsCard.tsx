import { H4, HTMLSelect } from '@blueprintjs/core';
import { NOTE_CATEGORIES, type NoteCategory, routes } from '@mrn/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiQuery } from '../../../api/hooks.ts';
import { CategoryTag, DateCell, EinCell } from '../../../merchants/table-cells.tsx';
import { merchantPath } from '../../../routing/paths.ts';
import { DataTable } from '../../../ui/DataTable.tsx';
import { Pager } from '../../../ui/Pager.tsx';
import { recentMerchantsRequest } from '../dashboard-data.ts';
import { recentMerchantsTitle } from './format.ts';
import { WidgetTableCard } from './WidgetTableCard.tsx';

const ALL = '';
const COLUMNS = ['Merchant', 'EIN/BN', 'Category', 'Reported'];

/** Recently Reported {category} merchants, 20 a page, All categories by default (accounts spec §2, §9). */
export function RecentMerchantsCard() {
  const selectId = useId();
  const [category, setCategory] = useState<NoteCategory | undefined>(undefined);
  const [page, setPage] = useState(1);
  const recent = useApiQuery(routes.recentMerchantsByCategory, recentMerchantsRequest(page, category), {
    placeholderData: keepPreviousData,
  });
  const title = recentMerchantsTitle(category);
  const merchants = recent.data?.data ?? [];

  return (
    <WidgetTableCard
      title={title}
      heading={
        <div className="mrn-card-title-row">
          <H4 id={`${selectId}-title`}>{title}</H4>
          <div className="mrn-widget-tools">
            <span className="mrn-pager-size">
              <label htmlFor={selectId}>Category</label>
              <HTMLSelect
                id={selectId}
                value={category ?? ALL}
                onChange={(event) => {
                  setCategory((event.target.value || undefined) as NoteCategory | undefined);
                  setPage(1);
                }}
                options={[
                  { value: ALL, label: 'All' },
                  ...NOTE_CATEGORIES.map((c) => ({ value: c, label: c })),
                ]}
              />
            </span>
            {recent.data && recent.data.pagination.total_count > 0 && (
              <Pager
                pagination={recent.data.pagination}
                onPageChange={setPage}
                loading={recent.isPlaceholderData}
              />
            )}
          </div>
        </div>
      }
      query={recent}
      isEmpty={merchants.length === 0}
      loadingLabel="Loading recently reported merchants"
      emptyIcon="shop"
      emptyTitle={category ? `No merchants reported as ${category}` : 'No merchants reported yet'}
    >
      <DataTable caption={`${title}, newest first`} columns={COLUMNS}>
        {merchants.map((m) => (
          <tr key={m.resource_id}>
            <td className="mrn-cell-title" data-label="Merchant">
              <Link to={merchantPath(m.resource_id)}>{m.legal_name}</Link>
              {m.dba && <div className="mrn-cell-sub">DBA {m.dba}</div>}
            </td>
            <EinCell fein={m.fein} />
            <td data-label="Category">
              <CategoryTag category={m.category} />
            </td>
            <DateCell label="Reported" value={m.reported_at} />
          </tr>
        ))}
      </DataTable>
    </WidgetTableCard>
  );
}
