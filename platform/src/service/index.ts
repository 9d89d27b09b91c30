export * from './boot.ts';
export * from './health-routes.ts';
export * from './http-shell.ts';
export * from './lifecycle.ts';
export * from './ops-listener.ts';
export * from './secrets.ts';
export * from './security-headers.ts';
