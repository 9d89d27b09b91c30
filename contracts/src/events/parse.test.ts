import { describe, expect, it } from 'vitest';
import { EventParseError, parseEvent, parseEventData } from './parse.ts';

describe('reading events through the catalogue', () => {
  it('passes data of the current shape', () => {
    const event = { type: 'EinReserved', data: { fein: '123456789', merchantId: 'm1' }, metadata: {} };
    expect(parseEvent(event)).toEqual(event);
  });

  it('refuses an unknown type and data of the wrong shape, naming the field', () => {
    expect(() => parseEventData('NoSuchThing' as never, {})).toThrow(EventParseError);
    expect(() => parseEventData('EinReserved', { fein: 123456789, merchantId: 'm1' })).toThrow(/fein/);
  });

  it('runs the upcasters from the recorded schema version to the current one', () => {
    // A made-up history: v1 had `ein`, v2 renamed it `fein`, v3 added `merchantId`.
    const registry = {
      versions: { EinReserved: 3 },
      upcasters: {
        EinReserved: {
          1: (d: unknown) => {
            const { ein, ...rest } = d as { ein: string };
            return { ...rest, fein: ein };
          },
          2: (d: unknown) => ({ merchantId: 'unknown', ...(d as object) }),
        },
      },
    };
    expect(parseEventData('EinReserved', { ein: '123456789' }, 1, registry)).toEqual({
      fein: '123456789',
      merchantId: 'unknown',
    });
    expect(parseEventData('EinReserved', { fein: '1', merchantId: 'm' }, 3, registry)).toEqual({
      fein: '1',
      merchantId: 'm',
    });
    expect(() =>
      parseEventData('EinReserved', {}, 1, { versions: { EinReserved: 2 }, upcasters: {} }),
    ).toThrow(/no upcaster from version 1/);
  });
});
