export * from './fastify.ts';
export * from './registry.ts';
