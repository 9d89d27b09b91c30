/** What other packages' tests use of projections' test helpers (`@mrn/projections/testing`). */
export * from './recorded-events.ts';
export * from './replay-equality.ts';
