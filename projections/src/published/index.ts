// What projections publishes to the other services besides its tables (src/published-tables.ts): the
// queries over its read models that more than one service answers with. Only this entry point may be
// imported by another service (server/src/architecture/table-ownership.test.ts); it loads no projector.
export { merchantSubscriptionPage, WATCHED_EINS, type WatchedEinRow } from './merchant-subscription-page.ts';
