import { Card, H4, HTMLTable, NonIdealState, SegmentedControl, Spinner } from '@blueprintjs/core';
import { ANALYTICS_DAYS, HIT_CATEGORY_KEYS, type HitCategoryKey, routes } from '@mrn/contracts';
import { type ReactNode, useState } from 'react';
import { useApiQuery } from '../api/hooks.ts';
import { shortDay } from './chart-ticks.ts';
import { DailyBarChart } from './DailyBarChart.tsx';
import { ShareBars } from './ShareBars.tsx';
import './analytics.css';

// Blueprint palette: blue3, cerulean3, green3, orange3.
const BLUE = '#2d72d2';
const CERULEAN = '#147eb3';
const GREEN = '#238551';
const ORANGE = '#c87619';

const CATEGORY_LABELS: Record<HitCategoryKey, string> = {
  suspicious_activity: 'Suspicious Activity',
  slow_pay: 'Slow Pay',
  split_pay: 'Split Payer',
  stacking_history: 'Stacking History',
  criminal_history: 'Criminal History',
  covid_hardship: 'Covid-19 Hardship',
  default: 'Default',
  other: 'Other',
  default_satisfied: 'Default Satisfied',
};

type View = 'chart' | 'table';

/** A chart card: its title, a Chart/Table switch, and loading, error and empty states. */
function ChartCard({
  title,
  state,
  emptyText,
  chart,
  table,
}: {
  title: string;
  state: { isPending: boolean; isError: boolean; isEmpty: boolean };
  emptyText: string;
  chart: () => ReactNode;
  table: () => ReactNode;
}) {
  const [view, setView] = useState<View>('chart');
  return (
    <Card elevation={1} className="mrn-analytics-card">
      <div className="mrn-card-title-row">
        <H4>{title}</H4>
        <SegmentedControl
          size="small"
          aria-label={`${title}: show as`}
          options={[
            { label: 'Chart', value: 'chart' },
            { label: 'Table', value: 'table' },
          ]}
          value={view}
          onValueChange={(v) => setView(v as View)}
        />
      </div>
      {state.isPending ? (
        <Spinner size={28} aria-label={`Loading ${title.toLowerCase()}`} className="mrn-analytics-spinner" />
      ) : state.isError ? (
        <NonIdealState icon="error" title={`Unable to load ${title.toLowerCase()}.`} />
      ) : state.isEmpty ? (
        <NonIdealState
          icon="timeline-bar-chart"
          title={emptyText}
          description={`Nothing in the last ${ANALYTICS_DAYS} days.`}
        />
      ) : view === 'chart' ? (
        chart()
      ) : (
        table()
      )}
    </Card>
  );
}

/**
 * Account analytics (accounts spec §2): additions and searches by day, searches by source and hits by
 * category over the last 30 days, as charts or as tables of the same numbers. `accountId` null: the
 * caller's own account (for platform admins, the whole network).
 */
export function AnalyticsPanel({ accountId }: { accountId: string | null }) {
  const request = { query: accountId ? { account_id: accountId } : {} };
  const searches = useApiQuery(routes.searchesByDay, request);
  const additions = useApiQuery(routes.additionsByDay, request);
  const sources = useApiQuery(routes.searchesBySource, request);
  const hits = useApiQuery(routes.hitsByCategory, request);

  const searchDays = (searches.data?.data ?? []).map((d) => ({
    day: d.daily_search_date,
    web: d.total_web_searches,
    api: d.total_api_searches,
    hits: d.total_hits,
  }));
  const additionDays = (additions.data?.data ?? []).map((d) => ({
    day: d.daily_addition_date,
    merchants: d.total_merchants,
    notes: d.total_notes,
  }));
  const sourceRows = sources.data
    ? [
        { label: 'Web', total: sources.data.data.total_web, percent: sources.data.data.percent_web },
        { label: 'API', total: sources.data.data.total_api, percent: sources.data.data.percent_api },
      ]
    : [];
  const hitRows = hits.data
    ? (Object.keys(HIT_CATEGORY_KEYS) as HitCategoryKey[]).map((k) => ({
        label: CATEGORY_LABELS[k],
        total: hits.data.data[`total_${k}`],
        percent: hits.data.data[`percent_${k}`],
      }))
    : [];
  const dailyTable = <T extends { day: string }>(rows: T[], columns: [string, (r: T) => number][]) => (
    <div className="mrn-table-scroll">
      <HTMLTable compact striped className="mrn-analytics-table">
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            {columns.map(([label]) => (
              <th scope="col" key={label}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...rows].reverse().map((r) => (
            <tr key={r.day}>
              <th scope="row">{shortDay(r.day)}</th>
              {columns.map(([label, value]) => (
                <td key={label}>{value(r).toLocaleString('en-US')}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
  const shareTable = (rows: { label: string; total: number; percent: number }[], what: string) => (
    <HTMLTable compact striped className="mrn-analytics-table">
      <thead>
        <tr>
          <th scope="col">{what}</th>
          <th scope="col">Total</th>
          <th scope="col">Percent</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label}>
            <th scope="row">{r.label}</th>
            <td>{r.total.toLocaleString('en-US')}</td>
            <td>{r.percent.toLocaleString('en-US', { maximumFractionDigits: 2 })}%</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );

  return (
    <div className="mrn-analytics">
      <ChartCard
        title="Searches by day"
        state={{
          isPending: searches.isPending,
          isError: searches.isError,
          isEmpty: searchDays.every((d) => d.web + d.api === 0),
        }}
        emptyText="No searches yet"
        chart={() => (
          <DailyBarChart
            title="Searches by day"
            days={searchDays}
            series={[
              { key: 'web', label: 'Web', color: BLUE },
              { key: 'api', label: 'API', color: CERULEAN },
            ]}
            details={[{ key: 'hits', label: 'Hits' }]}
          />
        )}
        table={() =>
          dailyTable(searchDays, [
            ['Web searches', (r) => r.web],
            ['API searches', (r) => r.api],
            ['Hits', (r) => r.hits],
          ])
        }
      />
      <ChartCard
        title="Additions by day"
        state={{
          isPending: additions.isPending,
          isError: additions.isError,
          isEmpty: additionDays.every((d) => d.merchants + d.notes === 0),
        }}
        emptyText="No merchants or notes added yet"
        chart={() => (
          <DailyBarChart<'merchants' | 'notes'>
            title="Additions by day"
            days={additionDays}
            series={[
              { key: 'merchants', label: 'Merchants', color: GREEN },
              { key: 'notes', label: 'Notes', color: ORANGE },
            ]}
          />
        )}
        table={() =>
          dailyTable(additionDays, [
            ['Merchants', (r) => r.merchants],
            ['Notes', (r) => r.notes],
          ])
        }
      />
      <ChartCard
        title="Searches by source"
        state={{
          isPending: sources.isPending,
          isError: sources.isError,
          isEmpty: sourceRows.every((r) => r.total === 0),
        }}
        emptyText="No searches yet"
        chart={() => <ShareBars title="Searches by source" rows={sourceRows} color={BLUE} />}
        table={() => shareTable(sourceRows, 'Source')}
      />
      <ChartCard
        title="Hits by category"
        state={{
          isPending: hits.isPending,
          isError: hits.isError,
          isEmpty: hitRows.every((r) => r.total === 0),
        }}
        emptyText="No hits yet"
        chart={() => <ShareBars title="Hits by category" rows={hitRows} color={ORANGE} />}
        table={() => shareTable(hitRows, 'Category')}
      />
    </div>
  );
}
