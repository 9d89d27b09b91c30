import { Card, NonIdealState, Spinner } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { ReactNode } from 'react';

/**
 * A titled widget table: a spinner while its first page loads, an empty state, the rows. A failed call
 * shows nothing more than the title (widget failures are silent, accounts spec §8).
 */
export function WidgetTableCard({
  heading,
  query,
  isEmpty,
  loadingLabel,
  emptyIcon,
  emptyTitle,
  children,
}: {
  heading: ReactNode;
  query: { isPending: boolean; isError: boolean };
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
      ) : query.isError ? null : isEmpty ? (
        <NonIdealState icon={emptyIcon} title={emptyTitle} />
      ) : (
        children
      )}
    </Card>
  );
}
