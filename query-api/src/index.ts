export * from './context.ts';
export * from './plugin.ts';
