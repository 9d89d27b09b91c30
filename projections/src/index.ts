export * from './health.ts';
export * from './migrations.ts';
export * from './projector.ts';
export * from './quarantine.ts';
export * from './read-models/index.ts';
export * from './rebuild.ts';
export * from './runner.ts';
