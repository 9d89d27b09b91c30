import type { NavigateFunction } from 'react-router-dom';
import { PATHS } from './paths.ts';

/** Back to the previous screen of this app, or the dashboard when the page was opened directly. */
export function goBack(navigate: NavigateFunction): void {
  const state = window.history.state as { idx?: number } | null;
  if (state?.idx && state.idx > 0) navigate(-1);
  else navigate(PATHS.dashboard);
}
