import { loadMigrations, type Migration } from '@mrn/platform';

export const projectionMigrations = (): Migration[] =>
  loadMigrations('projections', new URL('../migrations/', import.meta.url));
