import { Callout, Intent, NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { ApiError } from '../../api/api-error.ts';
import { PageSpinner } from '../../ui/PageSpinner.tsx';

/** Loading, failure and empty states of an admin list; null once there are rows to show. */
export function ListState({
  isPending,
  error,
  isEmpty,
  emptyIcon,
  emptyTitle,
  emptyDescription,
}: {
  isPending: boolean;
  error: ApiError | null;
  isEmpty: boolean;
  emptyIcon: IconName;
  emptyTitle: string;
  emptyDescription?: string;
}) {
  if (isPending) return <PageSpinner label="Loading" />;
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
        className="mrn-empty-small"
      />
    );
  return null;
}
