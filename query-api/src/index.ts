export * from './consistency.ts';
export * from './context.ts';
export * from './plugin.ts';
export * from './search-recorder.ts';
export * from './openapi.ts';
export * from './service.ts';
