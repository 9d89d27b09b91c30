import { Button } from '@blueprintjs/core';

/** What a Retry needs of a react-query query: to ask again, and whether it is asking. */
export interface Retryable {
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * Retry for something that failed to load: asks again (react-query's refetch), spinning while it does.
 * `what` names it for assistive technology when several could fail on one screen ("Retry Total Notes").
 */
export function RetryButton({ query, what, small }: { query: Retryable; what?: string; small?: boolean }) {
  return (
    <Button
      icon="refresh"
      text="Retry"
      size={small ? 'small' : 'medium'}
      variant="outlined"
      aria-label={what ? `Retry ${what}` : undefined}
      loading={query.isFetching}
      onClick={() => void query.refetch()}
    />
  );
}
