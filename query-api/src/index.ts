export * from './context.ts';
export * from './plugin.ts';
export * from './search-recorder.ts';
