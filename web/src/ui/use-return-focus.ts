import { Classes } from '@blueprintjs/core';
import { useCallback, useRef } from 'react';

/** Props for a Blueprint Dialog (or Alert, Drawer) that give the focus back when it has closed. */
export interface ReturnFocusProps {
  shouldReturnFocusOnClose: false;
  onClosed: () => void;
}

const inOverlay = (element: Element) => element.closest(`.${Classes.PORTAL}, .${Classes.OVERLAY}`) !== null;

/**
 * After Save or Cancel the keyboard user is back where they were: on the button (or row) that opened the
 * dialog. Blueprint notes the focused element only once the dialog has mounted, when a field with
 * `autoFocus` already holds the focus, so it would "return" the focus to that field, gone with the
 * dialog, and the focus fell to the page body. Here the opener is noted as the dialog is asked to open.
 *
 * `fallback` is where the focus goes when the opener is gone (the row it was on was replaced). When the
 * dialog's action moved the focus elsewhere (a page it opened focused its first field), it stays there.
 */
export function useReturnFocus(isOpen: boolean, fallback?: () => HTMLElement | null): ReturnFocusProps {
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  // Noted while rendering the opening: before React commits the dialog and its autofocused field.
  if (isOpen && !wasOpen.current) {
    const active = typeof document === 'undefined' ? null : document.activeElement;
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
  }
  wasOpen.current = isOpen;

  const onClosed = useCallback(() => {
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected && !inOverlay(active)) return;
    const target = opener.current?.isConnected ? opener.current : (fallback?.() ?? null);
    target?.focus({ preventScroll: true });
  }, [fallback]);

  return { shouldReturnFocusOnClose: false, onClosed };
}
