import { useIsFetching } from '@tanstack/react-query';
import { usePageLoadsPending } from '../ui/page-loads.ts';

/**
 * A thin bar across the top while a page is on its way: its code is being fetched or its data has not
 * come yet (a refresh of data already shown does not count). It shows at once, so a slow page never
 * looks like a click that did nothing.
 */
export function NavigationProgress() {
  const loadingPage = usePageLoadsPending();
  const waitingForData = useIsFetching({ predicate: (query) => query.state.data === undefined }) > 0;
  if (!loadingPage && !waitingForData) return null;
  return <div className="mrn-progress-bar" role="progressbar" aria-label="Loading page" />;
}
