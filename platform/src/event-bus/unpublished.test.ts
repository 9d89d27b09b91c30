import { eventSchemas } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isPublished, UNPUBLISHED_EVENT_TYPES } from './unpublished.ts';

/** Field names that hold a credential or what stands in for one. */
const SECRET_FIELD = /secret|hash|token|password|passphrase|otp|private|apikey|api_key/i;

/** Every property name anywhere in a JSON Schema (nested objects and arrays included). */
function propertyNames(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const n of node) propertyNames(n, into);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const name of Object.keys(value)) into.add(name);
      }
      propertyNames(value, into);
    }
  }
  return into;
}

const secretFields = (schema: z.ZodType): string[] =>
  [...propertyNames(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }))].filter((n) =>
    SECRET_FIELD.test(n),
  );

describe('event types never published to the bus', () => {
  it('include every event type whose data has a field named like a secret', () => {
    const secretBearing = Object.entries(eventSchemas)
      .filter(([, schema]) => secretFields(schema as z.ZodType).length > 0)
      .map(([type]) => type)
      .sort();
    // The check itself must find something: the catalogue has such types (UserMfaEnabled's `secret`).
    expect(secretBearing).toContain('UserMfaEnabled');
    const missing = secretBearing.filter((type) => isPublished(type));
    expect(missing, 'secret-bearing event types missing from UNPUBLISHED_EVENT_TYPES').toEqual([]);
  });

  it('name only event types of the catalogue', () => {
    for (const type of UNPUBLISHED_EVENT_TYPES) expect(Object.hasOwn(eventSchemas, type)).toBe(true);
  });

  it('leave every other event type published, those the dispatcher reads among them', () => {
    for (const type of ['NoteAdded', 'NoteUpdated', 'MerchantAdded', 'AccountUpdated']) {
      expect(isPublished(type)).toBe(true);
    }
    expect(isPublished('UserMfaEnabled')).toBe(false);
  });
});
