import { Callout, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { ApiError } from '../api/api-error.ts';
import { PageSpinner } from './PageSpinner.tsx';
import { type Retryable, RetryButton } from './RetryButton.tsx';

/** Loading, failure and empty states of a list; null once there are rows to show. */
export function ListState({
  isPending,
  error,
  isEmpty,
  emptyIcon,
  emptyTitle,
  emptyDescription,
  loadingLabel = 'Loading',
  inTitledCard = false,
  retry,
}: {
  isPending: boolean;
  error: ApiError | null;
  isEmpty: boolean;
  emptyIcon: IconName;
  emptyTitle: string;
  emptyDescription?: string;
  loadingLabel?: string;
  /** Inside a titled table card, whose own styles space a bare spinner and a full-size empty state. */
  inTitledCard?: boolean;
  /** The query behind the list: a failure then offers Retry (a dashboard card, issue 32). */
  retry?: Retryable;
}) {
  if (isPending)
    return inTitledCard ? <Spinner aria-label={loadingLabel} /> : <PageSpinner label={loadingLabel} />;
  if (error)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {retry ? (
          <>
            <p className="mrn-list-failed-reason">{error.message}</p>
            <RetryButton query={retry} />
          </>
        ) : (
          error.message
        )}
      </Callout>
    );
  if (isEmpty)
    return (
      <NonIdealState
        icon={emptyIcon}
        title={emptyTitle}
        description={emptyDescription}
        className={inTitledCard ? undefined : 'mrn-empty-small'}
      />
    );
  return null;
}
