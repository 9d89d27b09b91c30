import { routes, type SubscriptionImportView } from '@mrn/contracts';
import { downloadRoute, fetchRouteFile } from '../api/download.ts';
import { type ImportResults, parseImportResultsInSlices } from './import-results.ts';

/** The results route of one import, at the address its list row gives. */
const resultsRoute = (path: string) => ({ ...routes.downloadSubscriptionImportResults, path });

/**
 * The results of an import, fetched as the route serves them (CSV) and parsed in the browser, in slices
 * that leave the page free between them. The parse is recorded as the User Timing measure
 * `mrn-import-results-parse` (from the first slice to the last), which the browser test reads.
 */
export async function loadImportResults(path: string, signal?: AbortSignal): Promise<ImportResults> {
  const text = await (await fetchRouteFile(resultsRoute(path), signal)).text();
  const started = performance.now();
  const results = await parseImportResultsInSlices(text);
  performance.measure('mrn-import-results-parse', { start: started, end: performance.now() });
  return results;
}

/** Saves the results CSV as `{file}-results.csv` (or the server's name for it). */
export function downloadImportResults(upload: SubscriptionImportView): Promise<string> {
  return downloadRoute(
    resultsRoute(upload.results_file_url ?? ''),
    `${upload.file_name.replace(/\.csv$/i, '')}-results.csv`,
  );
}
