export * from './consistency.ts';
export * from './context.ts';
export { partnerQueryHandlers } from './handlers/partner-api.ts';
export { SEARCH_STATEMENTS } from './handlers/search.ts';
export * from './openapi.ts';
export * from './plugin.ts';
export * from './search-recorder.ts';
export * from './service.ts';
export { foldForSearch, keywordRange, keywordScan, keywordWords } from './views.ts';
