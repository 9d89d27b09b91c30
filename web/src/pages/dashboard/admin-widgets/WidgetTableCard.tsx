import { Card, Classes, NonIdealState, Spinner } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { ReactNode } from 'react';
import { type Retryable, RetryButton } from '../../../ui/RetryButton.tsx';

/**
 * A titled widget table: a spinner while its first page loads, an empty state, the rows. A failed call
 * shows the title and Retry (widget failures are quiet, accounts spec §8: no toast, no error text; issue
 * 32 gave them a way to ask again).
 */
export function WidgetTableCard({
  title,
  heading,
  query,
  isEmpty,
  loadingLabel,
  emptyIcon,
  emptyTitle,
  children,
}: {
  /** What the card lists, for Retry's accessible name. */
  title: string;
  heading: ReactNode;
  query: { isPending: boolean; isError: boolean } & Retryable;
  isEmpty: boolean;
  loadingLabel: string;
  emptyIcon: IconName;
  emptyTitle: string;
  children: ReactNode;
}) {
  return (
    <Card className="mrn-card mrn-table-card mrn-widget-card" elevation={1}>
      {heading}
      {query.isPending ? (
        <Spinner aria-label={loadingLabel} />
      ) : query.isError ? (
        <div className="mrn-widget-failed">
          <span className={Classes.TEXT_MUTED}>Not loaded.</span>
          <RetryButton query={query} what={title} small />
        </div>
      ) : isEmpty ? (
        <NonIdealState icon={emptyIcon} title={emptyTitle} />
      ) : (
        children
      )}
    </Card>
  );
}
