import { useSyncExternalStore } from 'react';

// Page modules being fetched for a page that is waiting to be shown. A store outside React, so the
// progress bar updates at once even while the router holds the old page in a transition.
let pending = 0;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** Counts `loading` as a page load until it settles. */
export function trackPageLoad<T>(loading: Promise<T>): Promise<T> {
  pending += 1;
  notify();
  const done = () => {
    pending -= 1;
    notify();
  };
  loading.then(done, done);
  return loading;
}

export function usePageLoadsPending(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending > 0,
  );
}
