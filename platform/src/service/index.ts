export * from './http-shell.ts';
export * from './lifecycle.ts';
export * from './secrets.ts';
export * from './security-headers.ts';
