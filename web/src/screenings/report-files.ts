import { buildPath, routes } from '@mrn/contracts';
import { downloadRoute } from '../api/download.ts';
import { toQueryString } from '../api/query-string.ts';
import type { ReportFilters } from './screening.ts';

// A screening's report as files, fetched with the session token (api/download.ts) and saved under the
// server's file name.

const fallbackName = (id: string, extension: string) => `screening-${id.slice(0, 8)}.${extension}`;

/** The report's rows as CSV, worst first, as the filters shown narrow them. */
export function downloadScreeningCsv(id: string, filters: ReportFilters): Promise<string> {
  const route = routes.downloadScreeningCsv;
  return downloadRoute(
    { ...route, path: buildPath(route.path, { id }) + toQueryString(filters) },
    fallbackName(id, 'csv'),
  );
}

/** The report for a credit committee: the summary, the exposure by category and the flagged merchants. */
export function downloadScreeningPdf(id: string): Promise<string> {
  const route = routes.downloadScreeningPdf;
  return downloadRoute({ ...route, path: buildPath(route.path, { id }) }, fallbackName(id, 'pdf'));
}
