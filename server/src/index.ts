export * from './app.ts';
export { billingTestKeys } from './billing.ts';
export * from './bootstrap.ts';
export * from './database.ts';
export * from './demo.ts';
