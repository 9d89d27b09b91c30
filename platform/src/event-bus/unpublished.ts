import type { EventType } from '@mrn/contracts';

/**
 * Event types the relay never publishes. They carry credentials or what stands in for them (a TOTP
 * secret, password hashes, API key hashes, reset and remember-device token hashes): inside Postgres they
 * are protected like the rest of the system of record, but a topic is read by every consumer on the
 * cluster, kept for its retention and copied by mirroring tools. No consumer of the bus needs them.
 * `unpublished.test.ts` fails when an event type whose schema has a field named like a secret is missing
 * here, so a new secret-bearing type cannot slip onto the bus.
 */
export const UNPUBLISHED_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  'UserRegistered',
  'UserPasswordChanged',
  'UserPasswordResetRequested',
  'UserMfaEnabled',
  'UserDeviceRemembered',
  'UserApiAccessGranted',
  'UserApiKeyRegenerated',
]);

export const isPublished = (type: string): boolean => !UNPUBLISHED_EVENT_TYPES.has(type as EventType);
