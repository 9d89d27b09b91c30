import { Alert, Intent } from '@blueprintjs/core';
import { type ReactNode, useCallback, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router-dom';

/**
 * Warns before a form with unsaved input is left: another page of the app asks first (an alert with
 * Stay and Leave), closing or reloading the tab gets the browser's own question. `allowLeave()` lets
 * the next navigation through (after a save, or when the input is carried along).
 */
export function useLeaveWarning(
  hasUnsavedInput: boolean,
  texts: { title: string; body: string },
): { alert: ReactNode; allowLeave: () => void } {
  const allowed = useRef(false);
  const warn = hasUnsavedInput;
  const blocker = useBlocker(
    useCallback(
      ({ currentLocation, nextLocation }) =>
        warn && !allowed.current && currentLocation.pathname !== nextLocation.pathname,
      [warn],
    ),
  );

  useEffect(() => {
    if (!warn) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (allowed.current) return;
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [warn]);

  const alert = (
    <Alert
      isOpen={blocker.state === 'blocked'}
      intent={Intent.DANGER}
      icon="warning-sign"
      confirmButtonText="Leave"
      cancelButtonText="Stay"
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
      canEscapeKeyCancel
    >
      <p>
        <strong>{texts.title}</strong>
      </p>
      <p>{texts.body}</p>
    </Alert>
  );
  return { alert, allowLeave: useCallback(() => (allowed.current = true), []) };
}
