export * from './auth/passwords.ts';
export * from './command-handler.ts';
export * from './context.ts';
export * from './domain/merchant/merchant.ts';
export * from './plugin.ts';
export * from './services/accounts.ts';
export * from './services/merchants.ts';
export * from './services/users.ts';
