import { Callout, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { ApiError } from '../api/api-error.ts';
import { PageSpinner } from './PageSpinner.tsx';

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
}) {
  if (isPending)
    return inTitledCard ? <Spinner aria-label={loadingLabel} /> : <PageSpinner label={loadingLabel} />;
  if (error)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {error.message}
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
