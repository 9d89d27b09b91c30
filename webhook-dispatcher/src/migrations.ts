import { loadMigrations, type Migration } from '@mrn/platform';

export const dispatcherMigrations = (): Migration[] =>
  loadMigrations('webhook-dispatcher', new URL('../migrations/', import.meta.url));
