export * from './consistency.ts';
export * from './context.ts';
export * from './plugin.ts';
export * from './search-recorder.ts';
