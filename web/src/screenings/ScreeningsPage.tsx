import { Button, Callout, Card, Classes, FileInput, H2, H4, H5, Intent, Tag } from '@blueprintjs/core';
import {
  routes,
  SCREENING_CSV_MAX_BYTES,
  SCREENING_MAX_EINS,
  SCREENING_TEXTS,
  type ScreeningRequestBody,
  type ScreeningView,
} from '@mrn/contracts';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError } from '../api/api-error.ts';
import { call } from '../api/client.ts';
import { useApiQuery } from '../api/hooks.ts';
import { invalidateApiPaths } from '../api/invalidate.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { hasProFeatures } from '../auth/permissions.ts';
import { useContribution } from '../contribution/queries.ts';
import { standingOf } from '../contribution/standing.ts';
import { formatFileSize } from '../merchant-subscriptions/file-size.ts';
import { formatDateTime } from '../merchants/format.ts';
import { PATHS, screeningPath } from '../routing/paths.ts';
import { LinkedRow } from '../ui/LinkedRow.tsx';
import { ListState } from '../ui/ListState.tsx';
import { Pager } from '../ui/Pager.tsx';
import { TableCard } from '../ui/TableCard.tsx';
import { useDocumentTitle } from '../ui/use-document-title.ts';
import { useListParams } from '../ui/use-list-params.ts';
import { ScreeningUnavailable } from './ScreeningUnavailable.tsx';
import {
  checkScreeningFile,
  isRunning,
  progressOf,
  STATUS_LABELS,
  type StartedState,
  screeningFileName,
  sourceLabel,
} from './screening.ts';
import './screenings.css';

/** The list of past screenings is asked again this often while one of them runs. */
const LIST_REFRESH_MS = 2_000;
const LIST_PAGE_SIZES = [20] as const;
const COLUMNS = ['Portfolio', 'Started', 'Status', 'EINs', 'Found', 'Flagged', 'Not Screened', 'Started By'];
const count = (n: number) => n.toLocaleString('en-US');
/** Rows of a refused file listed under the refusal. */
const REFUSED_ROWS_LISTED = 10;

/**
 * The rows a refusal names ("row 7: must be 9 digits…"), when the server lists them as fields: a file
 * with no EIN at all is refused whole, and each of its rows has its problem.
 */
const rowProblems = (error: ApiError): string[] =>
  (error.body?.fields ?? []).filter((f) => /^row \d+$/.test(f.field)).map((f) => `${f.field}: ${f.message}`);

/**
 * /screenings (issue 32, PRO): start a screening, from a CSV of EINs or from the EINs the account watches,
 * and the account's past screenings, each opening its report. BASIC sees what it does and how to get it.
 */
export function ScreeningsPage() {
  useDocumentTitle('Portfolio Screening');
  const user = useSignedInUser();
  if (!hasProFeatures(user)) return <ScreeningUnavailable />;
  return (
    <div className="mrn-page">
      <header className="mrn-page-header">
        <H2>Portfolio Screening</H2>
        <p className={Classes.TEXT_MUTED}>
          Your whole portfolio looked up at once: each EIN found in the network or not, with what funders
          reported on it, worst first.
        </p>
      </header>
      <StartScreening />
      <PastScreenings />
    </div>
  );
}

function StartScreening() {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const directionsId = useId();
  const contribution = useContribution(user.is_dm_admin ? undefined : user.account_resource_id);
  const locked = contribution.data ? standingOf(contribution.data) === 'locked' : false;
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<ScreeningRequestBody['source'] | null>(null);
  const [refusal, setRefusal] = useState<{ text: string; rows: string[] } | null>(null);

  const start = async (body: ScreeningRequestBody) => {
    setBusy(body.source);
    setRefusal(null);
    try {
      const answer = await call(routes.createScreening, { body });
      void invalidateApiPaths(queryClient, [routes.listScreenings.path]);
      const state: StartedState = {
        started: { total: answer.data.total, rejected: answer.data.rejected },
      };
      navigate(screeningPath(answer.data.resource_id), { state });
    } catch (error) {
      setBusy(null);
      if (error instanceof ApiError && error.status === 401) return;
      setRefusal({
        text: error instanceof Error ? error.message : String(error),
        rows: error instanceof ApiError ? rowProblems(error) : [],
      });
    }
  };

  const screenFile = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setProblem('Choose a .csv file of EINs.');
      return;
    }
    const invalid = checkScreeningFile(file);
    if (invalid) {
      setProblem(invalid);
      return;
    }
    let csv: string;
    try {
      csv = await file.text();
    } catch {
      setProblem('The file could not be read. Choose it again.');
      return;
    }
    await start({ source: 'csv', file_name: screeningFileName(file.name), csv });
  };

  return (
    <Card elevation={1} className="mrn-card mrn-screen-start">
      <H4>Start a screening</H4>
      <p className={Classes.RUNNING_TEXT}>{SCREENING_TEXTS.rules}</p>
      {locked && (
        <Callout intent={Intent.WARNING} icon="lock" className="mrn-callout-gap">
          {SCREENING_TEXTS.locked} <Link to={PATHS.contribution}>See your contribution</Link>
        </Callout>
      )}
      <div className="mrn-screen-options">
        <form className="mrn-screen-option" onSubmit={(event) => void screenFile(event)} noValidate>
          <H5>Upload a CSV of EINs</H5>
          <ul id={directionsId} className="mrn-screen-directions">
            <li>One EIN a row, in the first column; a header row is allowed.</li>
            <li>9 digits each; dashes and spaces are allowed (12-3456789).</li>
            <li>
              A .csv file of at most {SCREENING_CSV_MAX_BYTES / 1024} KB and{' '}
              {SCREENING_MAX_EINS.toLocaleString('en-US')} EINs.
            </li>
          </ul>
          <FileInput
            fill
            text={file ? file.name : 'Choose a .csv file…'}
            buttonText="Browse"
            hasSelection={file !== null}
            disabled={busy !== null}
            inputProps={{
              accept: '.csv,text/csv',
              'aria-label': 'CSV file of EINs',
              'aria-describedby': directionsId,
            }}
            onInputChange={(event) => {
              const chosen = event.currentTarget.files?.[0] ?? null;
              setFile(chosen);
              setRefusal(null);
              setProblem(chosen ? checkScreeningFile(chosen) : null);
            }}
          />
          {file && !problem && (
            <p className={`${Classes.TEXT_MUTED} mrn-small`}>{formatFileSize(file.size)}</p>
          )}
          {problem && (
            <Callout intent={Intent.DANGER} icon="error" role="alert" className="mrn-screen-problem-callout">
              {problem}
            </Callout>
          )}
          <div className="mrn-form-actions mrn-actions-start">
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              icon="upload"
              text="Screen this file"
              loading={busy === 'csv'}
              disabled={busy !== null || locked || !file || problem !== null}
            />
          </div>
        </form>
        <div className="mrn-screen-option">
          <H5>Or screen the EINs you watch</H5>
          <p>Every EIN on your account’s merchant subscriptions, looked up as it stands today.</p>
          <div className="mrn-form-actions mrn-actions-start">
            <Button
              icon="eye-open"
              text="Screen the EINs we watch"
              loading={busy === 'subscriptions'}
              disabled={busy !== null || locked}
              onClick={() => void start({ source: 'subscriptions' })}
            />
          </div>
        </div>
      </div>
      {refusal && (
        <Callout
          intent={Intent.DANGER}
          icon="error"
          role="alert"
          title="The screening was not started"
          className="mrn-screen-refusal"
        >
          {refusal.text}
          {refusal.rows.length > 0 && (
            <ul className="mrn-screen-rejected-list">
              {refusal.rows.slice(0, REFUSED_ROWS_LISTED).map((row) => (
                <li key={row}>{row}</li>
              ))}
              {refusal.rows.length > REFUSED_ROWS_LISTED && (
                <li>and {count(refusal.rows.length - REFUSED_ROWS_LISTED)} more rows</li>
              )}
            </ul>
          )}
        </Callout>
      )}
    </Card>
  );
}

function StatusCell({ view }: { view: ScreeningView }) {
  const progress = progressOf(view);
  return (
    <td data-label="Status" className="mrn-nowrap">
      <Tag minimal intent={isRunning(view.status) ? Intent.PRIMARY : Intent.SUCCESS}>
        {STATUS_LABELS[view.status]}
        {view.status === 'running' && progress !== undefined ? ` ${Math.floor(progress * 100)}%` : ''}
      </Tag>
    </td>
  );
}

function PastScreenings() {
  const list = useListParams(LIST_PAGE_SIZES, LIST_PAGE_SIZES[0]);
  const screenings = useApiQuery(
    routes.listScreenings,
    { query: { page: list.page } },
    {
      placeholderData: keepPreviousData,
      refetchInterval: (query) =>
        query.state.data?.data.some((s) => isRunning(s.status)) ? LIST_REFRESH_MS : false,
    },
  );
  const rows = screenings.data?.data ?? [];
  return (
    <section className="mrn-page" aria-labelledby="mrn-past-screenings">
      <div className="mrn-list-toolbar">
        <H4 id="mrn-past-screenings" className="mrn-screen-list-title">
          Past screenings
        </H4>
        {screenings.data && screenings.data.pagination.total_count > 0 && (
          <Pager
            pagination={screenings.data.pagination}
            onPageChange={list.setPage}
            loading={screenings.isPlaceholderData}
          />
        )}
      </div>
      <ListState
        isPending={screenings.isPending}
        error={screenings.error}
        isEmpty={rows.length === 0}
        loadingLabel="Loading screenings"
        emptyIcon="search-template"
        emptyTitle="No screenings yet"
        emptyDescription="Each screening your account starts is listed here with its report, kept for you to open again."
      />
      {rows.length > 0 && (
        <TableCard caption="Past screenings, newest first" columns={COLUMNS} interactive>
          {rows.map((s) => (
            <LinkedRow key={s.resource_id} to={screeningPath(s.resource_id)} name={sourceLabel(s)}>
              <td data-label="Started" className="mrn-nowrap">
                {formatDateTime(s.created_at)}
              </td>
              <StatusCell view={s} />
              <td data-label="EINs" className="mrn-num">
                {count(s.total)}
              </td>
              <td data-label="Found" className="mrn-num">
                {count(s.found)}
              </td>
              <td data-label="Flagged" className="mrn-num">
                {count(s.flagged)}
              </td>
              <td data-label="Not Screened" className="mrn-num">
                {count(s.rejected)}
              </td>
              <td data-label="Started By">{s.requested_by ?? '—'}</td>
            </LinkedRow>
          ))}
        </TableCard>
      )}
    </section>
  );
}
