import {
  Button,
  Callout,
  Card,
  Classes,
  H2,
  H4,
  Intent,
  NonIdealState,
  ProgressBar,
  SegmentedControl,
  Tag,
} from '@blueprintjs/core';
import {
  routes,
  SCREENING_TEXTS,
  type ScreeningRejectedRow,
  type ScreeningView,
  type SignalWindow,
} from '@mrn/contracts';
import { useId, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../api/api-error.ts';
import { useApiQuery } from '../api/hooks.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { hasProFeatures } from '../auth/permissions.ts';
import { formatDateTime } from '../merchants/format.ts';
import { PATHS } from '../routing/paths.ts';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { useDocumentTitle } from '../ui/use-document-title.ts';
import { useDownload } from '../ui/use-download.ts';
import { useListParams } from '../ui/use-list-params.ts';
import { ExposureChart } from './ExposureChart.tsx';
import { ReportRows, ROW_PAGE_SIZES } from './ReportRows.tsx';
import { downloadScreeningCsv, downloadScreeningPdf } from './report-files.ts';
import { ScreeningUnavailable } from './ScreeningUnavailable.tsx';
import {
  describeRejectedRow,
  exposureBars,
  formatPercent,
  isRunning,
  progressOf,
  readReportFilters,
  STATUS_LABELS,
  type StartedState,
  screeningTitle,
  WINDOW_CHOICES,
  watchBlockedReason,
  windowChoice,
} from './screening.ts';
import { WatchAllHits } from './WatchAllHits.tsx';
import './screenings.css';

/** How often a screening's progress is asked while it is queued or running. */
export const PROGRESS_REFRESH_MS = 1_000;
/** Rows of the file not screened that the notice lists before pointing to the report's filter. */
const REJECTED_LISTED = 10;

const count = (n: number) => n.toLocaleString('en-US');

/** /screenings/:id (issue 32, PRO): a screening's progress, then its report. */
export function ScreeningReportPage() {
  const user = useSignedInUser();
  const { id = '' } = useParams();
  if (!hasProFeatures(user)) return <ScreeningUnavailable />;
  // Keyed: another screening's report starts afresh.
  return <ScreeningReport key={id} id={id} />;
}

function ScreeningReport({ id }: { id: string }) {
  useDocumentTitle('Screening Report');
  const navigate = useNavigate();
  const location = useLocation();
  // Kept from the first render: a filter's change replaces the address, and its state with it.
  const [started] = useState(() => (location.state as StartedState | null)?.started);
  const screening = useApiQuery(
    routes.getScreening,
    { params: { id } },
    {
      select: (answer) => answer.data,
      // While queued or running; a failed first read is not asked again on its own (Try again is).
      refetchInterval: (query) => {
        const view = query.state.data?.data;
        if (!view) return query.state.status === 'error' ? false : PROGRESS_REFRESH_MS;
        return isRunning(view.status) ? PROGRESS_REFRESH_MS : false;
      },
      // Just started: the query side takes the screening in a moment after the command answered, and
      // says "not found" until then.
      retry: (failures, error) =>
        started !== undefined && error.status === 404
          ? failures < 20
          : !(error instanceof ApiError && error.isClientError) && failures < 2,
      retryDelay: (failures) => (started !== undefined ? 500 : Math.min(1000 * 2 ** failures, 8000)),
    },
  );

  // A progress read that failed while the report is shown leaves the report as it was; the next one
  // brings it on.
  if (screening.data) return <Report view={screening.data} rejected={started?.rejected ?? []} />;
  const { error } = screening;
  if (!error) return <PageSpinner label="Loading the screening" />;
  const missing = error.status === 404;
  return (
    <div className="mrn-page">
      <NonIdealState
        icon={missing ? 'search' : 'error'}
        title={missing ? SCREENING_TEXTS.notFound : 'The screening could not be loaded'}
        description={missing ? undefined : error.message}
        action={
          missing ? (
            <Button icon="arrow-left" text="Portfolio Screening" onClick={() => navigate(PATHS.screenings)} />
          ) : (
            <Button icon="refresh" text="Try again" onClick={() => void screening.refetch()} />
          )
        }
      />
    </div>
  );
}

function Report({ view, rejected }: { view: ScreeningView; rejected: ScreeningRejectedRow[] }) {
  const navigate = useNavigate();
  const user = useSignedInUser();
  const list = useListParams(ROW_PAGE_SIZES, ROW_PAGE_SIZES[0]);
  const filters = readReportFilters(list.filter);
  const rowsRef = useRef<HTMLDivElement>(null);
  const progressId = useId();
  const watchReasonId = useId();
  const running = isRunning(view.status);
  const shownWindow = windowChoice(filters.window);

  const listRows = (outcome: string, category: string) => {
    list.setFilter('outcome', outcome);
    list.setFilter('category', category);
    rowsRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

  const { downloading, download: fetchReport } = useDownload<'csv' | 'pdf'>();
  const download = (kind: 'csv' | 'pdf') =>
    fetchReport(kind, () =>
      kind === 'csv'
        ? downloadScreeningCsv(view.resource_id, { window: 'ever' })
        : downloadScreeningPdf(view.resource_id),
    );
  const watchBlocked = watchBlockedReason(user, view);

  return (
    <div className="mrn-page">
      <Button
        className="mrn-back-link"
        variant="minimal"
        icon="arrow-left"
        text="Portfolio Screening"
        onClick={() => navigate(PATHS.screenings)}
      />
      <header className="mrn-header-row">
        <div className="mrn-page-header mrn-screen-title">
          <H2>{screeningTitle(view)}</H2>
          <p className={Classes.TEXT_MUTED}>
            Started {formatDateTime(view.created_at)}
            {view.requested_by ? ` by ${view.requested_by}` : ''}
            {view.finished_at ? ` · finished ${formatDateTime(view.finished_at)}` : ''} ·{' '}
            <Tag minimal intent={running ? Intent.PRIMARY : Intent.SUCCESS}>
              {STATUS_LABELS[view.status]}
            </Tag>
          </p>
        </div>
        <div className="mrn-header-actions">
          <Button
            icon="download"
            text="Download CSV"
            disabled={running}
            aria-describedby={running ? progressId : undefined}
            loading={downloading === 'csv'}
            onClick={() => void download('csv')}
          />
          <Button
            icon="document"
            text="Download PDF"
            disabled={running}
            aria-describedby={running ? progressId : undefined}
            loading={downloading === 'pdf'}
            onClick={() => void download('pdf')}
          />
          <WatchAllHits view={view} reasonId={watchReasonId} />
        </div>
      </header>
      {watchBlocked && (
        <p id={watchReasonId} className="mrn-secondary mrn-small mrn-screen-note">
          Watch all hits: {watchBlocked}
        </p>
      )}

      {rejected.length > 0 && <RejectedNotice rejected={rejected} onList={() => listRows('rejected', '')} />}

      {running && (
        <Card elevation={1} className="mrn-screen-progress">
          <div className="mrn-card-title-row">
            <H4>{view.status === 'queued' ? 'Waiting to start…' : 'Screening…'}</H4>
            <span className="mrn-num" id={progressId}>
              {count(view.screened)} of {count(view.total)} EINs screened
            </span>
          </div>
          <ProgressBar intent={Intent.PRIMARY} value={progressOf(view)} aria-label="Screening progress" />
          <p className={`${Classes.TEXT_MUTED} mrn-small`}>
            This page follows the screening as it runs, and the report fills in below. You may leave it: the
            screening goes on, and Portfolio Screening lists it.
          </p>
        </Card>
      )}

      <Summary view={view} onList={(outcome) => listRows(outcome, '')} />

      <Card elevation={1} className="mrn-card mrn-screen-exposure">
        <div className="mrn-card-title-row">
          <H4>Exposure by category</H4>
          <SegmentedControl
            aria-label="Reported in"
            size="small"
            value={filters.window}
            onValueChange={(value) => list.setFilter('window', value as SignalWindow)}
            options={WINDOW_CHOICES.map((w) => ({ value: w.value, label: w.label }))}
          />
        </div>
        {view.found === 0 ? (
          <p className={Classes.TEXT_MUTED}>
            {running
              ? 'The chart fills in as merchants are found.'
              : 'No EIN of this screening is in the network: there is no exposure to chart.'}
          </p>
        ) : (
          <>
            <p className={`${Classes.TEXT_MUTED} mrn-small`}>
              Merchants found with a live note in each category, reported {shownWindow.phrase}; a merchant
              reported in several categories counts in each. Select a bar to list its merchants.
            </p>
            <ExposureChart
              title={`Merchants found per category, reported ${shownWindow.phrase}`}
              bars={exposureBars(view.exposure, view.found, filters.window)}
              found={view.found}
              windowPhrase={shownWindow.phrase}
              selected={filters.category}
              onSelect={(group) => listRows('found', group)}
            />
          </>
        )}
      </Card>

      <ReportRows
        screeningId={view.resource_id}
        running={running}
        filters={filters}
        list={list}
        cardRef={rowsRef}
      />
    </div>
  );
}

/** The rows of the file the server did not screen, as its answer to the upload named them. */
function RejectedNotice({ rejected, onList }: { rejected: ScreeningRejectedRow[]; onList: () => void }) {
  const shown = rejected.slice(0, REJECTED_LISTED);
  const more = rejected.length - shown.length;
  return (
    <Callout
      intent={Intent.WARNING}
      icon="warning-sign"
      title={`${count(rejected.length)} ${rejected.length === 1 ? 'row was' : 'rows were'} not screened`}
      className="mrn-screen-rejected"
    >
      <p>The other rows are screened. Correct these and screen them again if they matter:</p>
      <ul className="mrn-screen-rejected-list">
        {shown.map((r) => (
          <li key={r.row}>
            {describeRejectedRow(r)}
            {r.input ? <span className="mrn-secondary"> (“{r.input}”)</span> : null}
          </li>
        ))}
      </ul>
      {more > 0 && (
        <Button
          variant="minimal"
          intent={Intent.WARNING}
          text={`List all ${count(rejected.length)} in the report`}
          onClick={onList}
        />
      )}
    </Callout>
  );
}

/** The figures of the screening: EINs, found, flagged, not found, rows not screened; each lists its rows. */
function Summary({ view, onList }: { view: ScreeningView; onList: (outcome: string) => void }) {
  const notFound = Math.max(0, view.screened - view.found);
  const figures: { label: string; value: string; detail: string }[] = [
    {
      label: 'EINs screened',
      value: `${count(view.screened)}`,
      detail: isRunning(view.status) ? `of ${count(view.total)}` : 'each once',
    },
    {
      label: 'Found in the network',
      value: count(view.found),
      detail: `${formatPercent(view.screened > 0 ? (view.found / view.screened) * 100 : 0)} of those screened`,
    },
    { label: 'Flagged', value: count(view.flagged), detail: 'found with a category reported' },
    { label: 'Not found', value: count(notFound), detail: 'no merchant with that EIN' },
    { label: 'Rows not screened', value: count(view.rejected), detail: 'not an EIN, or repeated' },
  ];
  return (
    <Card elevation={1} className="mrn-screen-summary">
      <dl className="mrn-screen-figures">
        {figures.map((f) => (
          <div key={f.label} className="mrn-screen-figure">
            <dt>{f.label}</dt>
            <dd>
              <span className="mrn-big-number mrn-num">{f.value}</span>
              <span className="mrn-secondary mrn-small">{f.detail}</span>
            </dd>
          </div>
        ))}
      </dl>
      {!isRunning(view.status) && (
        <p className="mrn-small mrn-screen-figure-links">
          List:{' '}
          <button type="button" className="mrn-link-button" onClick={() => onList('found')}>
            merchants found
          </button>
          {' · '}
          <button type="button" className="mrn-link-button" onClick={() => onList('not_found')}>
            EINs not found
          </button>
          {view.rejected > 0 && (
            <>
              {' · '}
              <button type="button" className="mrn-link-button" onClick={() => onList('rejected')}>
                rows not screened
              </button>
            </>
          )}
        </p>
      )}
    </Card>
  );
}
