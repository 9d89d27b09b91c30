import { Callout, HTMLTable, Intent, Spinner, SpinnerSize } from '@blueprintjs/core';
import { routes, SEARCH_HISTORY_MONTHS } from '@mrn/contracts';
import { lazy, Suspense } from 'react';
import { useApiQuery } from '../api/hooks.ts';
import { monthLabel } from './format.ts';

export const PRO_ONLY_SEARCH_HISTORY = 'Search history is only available to PRO members.';

// visx is loaded with the chart only, never with the first page.
const SearchHistoryChart = lazy(() => import('./SearchHistoryChart.tsx'));

/** PRO: how often the merchant's EIN was searched, by month, over the last 6 months (core spec §6). */
export function SearchHistory({ fein, isPro }: { fein: string; isPro: boolean }) {
  if (!isPro) return <p className="mrn-secondary">{PRO_ONLY_SEARCH_HISTORY}</p>;
  return <SearchCounts fein={fein} />;
}

function SearchCounts({ fein }: { fein: string }) {
  const counts = useApiQuery(routes.searchCounts, { query: { search: fein } }, { select: (a) => a.data });
  if (counts.isPending) return <Spinner size={SpinnerSize.SMALL} aria-label="Loading search history" />;
  if (counts.isError)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {counts.error.message}
      </Callout>
    );
  const { total, months } = counts.data;
  return (
    <div className="mrn-search-history">
      <p>
        <strong className="mrn-big-number">{total}</strong> {total === 1 ? 'search' : 'searches'} in the last{' '}
        {SEARCH_HISTORY_MONTHS} months
      </p>
      <Suspense fallback={<div className="mrn-chart-placeholder" />}>
        <SearchHistoryChart months={months} />
      </Suspense>
      <HTMLTable compact className="mrn-visually-hidden">
        <caption>Searches per month</caption>
        <tbody>
          {months.map((m) => (
            <tr key={m.month}>
              <th scope="row">{monthLabel(m.month)}</th>
              <td>{m.count}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
