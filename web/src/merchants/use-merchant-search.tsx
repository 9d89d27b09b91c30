import { routes, SEARCH_MIN } from '@mrn/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../api/api-error.ts';
import { apiQuery } from '../api/hooks.ts';
import { merchantPath, searchPath } from '../routing/paths.ts';
import { BRIEF_ERROR_TOAST_MS, showError } from '../ui/toaster.ts';
import { NoMerchantsFoundDialog } from './NoMerchantsFoundDialog.tsx';
import { searchOutcome } from './search-outcome.ts';

/** How long the /search page may show the answer the search box fetched before asking again. */
export const SEARCH_RESULTS_STALE_MS = 5 * 60_000;

export const SEARCH_TOO_SHORT = `Type at least ${SEARCH_MIN} characters to search.`;

export const searchQuery = (term: string) => apiQuery(routes.searchMerchants, { query: { search: term } });

/**
 * A search changes the search counts it touched (the not-found dialog's "searched N times", a merchant's
 * search history): the counts fetched before it are dropped, so the next look shows the fresh figure
 * instead of the one cached a moment ago.
 */
export const forgetSearchCounts = (queryClient: QueryClient) =>
  queryClient.removeQueries({ queryKey: [routes.searchCounts.method, routes.searchCounts.path] });

/**
 * The search flow of every search box (core spec §4): one result opens the merchant, several open
 * /search (which shows the answer fetched here, so the search is recorded once), none opens the
 * No Merchants Found dialog, any other failure (contribution below 0.5 %) shows the server's text.
 */
export function useMerchantSearch(onNavigate?: () => void) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searching, setSearching] = useState(false);
  const [notFoundTerm, setNotFoundTerm] = useState<string | null>(null);
  const inFlight = useRef(false);

  const search = useCallback(
    async (rawTerm: string): Promise<void> => {
      const term = rawTerm.trim();
      if (!term || inFlight.current) return;
      // The server's rule (SearchTerm), said before asking: a single letter would only offer to add a merchant.
      if (term.length < SEARCH_MIN) {
        showError(SEARCH_TOO_SHORT, { timeoutMs: BRIEF_ERROR_TOAST_MS });
        return;
      }
      inFlight.current = true;
      setSearching(true);
      try {
        // Each search is a recorded fact: always ask the server, never an earlier answer.
        const answer = await queryClient
          .fetchQuery({ ...searchQuery(term), staleTime: 0, retry: false })
          .finally(() => forgetSearchCounts(queryClient));
        const outcome = searchOutcome(answer);
        if (outcome.kind === 'none') {
          setNotFoundTerm(term);
          return;
        }
        navigate(outcome.kind === 'one' ? merchantPath(outcome.merchantId) : searchPath(term));
        onNavigate?.();
      } catch (error) {
        if (!(error instanceof ApiError)) {
          showError(String(error));
          return;
        }
        const outcome = searchOutcome(null, error);
        if (outcome.kind === 'none') setNotFoundTerm(term);
        else if (outcome.kind === 'failed' && error.status !== 401) showError(outcome.message);
      } finally {
        inFlight.current = false;
        setSearching(false);
      }
    },
    [navigate, queryClient, onNavigate],
  );

  const dialog = (
    <NoMerchantsFoundDialog term={notFoundTerm} onClose={() => setNotFoundTerm(null)} onAdd={onNavigate} />
  );
  return { search, searching, dialog };
}
