/**
 * The notification consumer of DESIGN §1: matches events to merchant subscriptions and delivers
 * signed webhooks (Standard Webhooks) and e-mails from a durable outbox in Postgres.
 */
export const DISPATCHER_NAME = 'webhook-dispatcher';
export * from './delivery/delivery-log.ts';
export * from './dispatcher.ts';
export * from './http/webhook-api.ts';
export * from './intake/enqueue.ts';
export * from './intake/payload.ts';
export * from './kafka/kafka.ts';
export * from './migrations.ts';
export * from './signing/signing.ts';
