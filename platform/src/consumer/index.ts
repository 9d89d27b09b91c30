export * from './checkpoints.ts';
export * from './consumer.ts';
export * from './feed-log.ts';
export * from './lease.ts';
export * from './notifications.ts';
export * from './progress.ts';
export * from './session-invalidation.ts';
