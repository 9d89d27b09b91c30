export * from './consistency.ts';
export * from './context.ts';
export * from './partner-api/openapi.ts';
export { partnerQueryHandlers } from './partner-api/partner-api-handlers.ts';
export * from './plugin.ts';
export { KEYWORD_CROWDED, SEARCH_STATEMENTS } from './search/search-handlers.ts';
export * from './search/search-recorder.ts';
export * from './service.ts';
export { foldForSearch, keywordKeys, keywordRange, keywordScan, keywordWords } from './views.ts';
