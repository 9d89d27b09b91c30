import { Spinner, SpinnerSize } from '@blueprintjs/core';

/** Shown while a page's code or the session is loading. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="mrn-page-spinner" role="status" aria-label={label}>
      <Spinner size={SpinnerSize.STANDARD} />
    </div>
  );
}
