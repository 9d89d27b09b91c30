import { describe, it } from 'vitest';
import { specFor } from '../testing.ts';
import { apiTokenBackfillDecider, apiTokenDecider } from './api-token-reservation.ts';

const spec = () => specFor(apiTokenDecider, { now: new Date() });

describe('API token reservation', () => {
  it('assigns a free token, once, and refuses it to anyone else', () => {
    spec()
      .given([])
      .when({ type: 'AssignApiToken', userId: 'u1' })
      .thenEvents([{ type: 'ApiTokenAssigned', data: { userId: 'u1' } }]);
    spec()
      .given([{ type: 'ApiTokenAssigned', data: { userId: 'u1' } }])
      .when({ type: 'AssignApiToken', userId: 'u1' })
      .thenEvents([]);
    spec()
      .given([{ type: 'ApiTokenAssigned', data: { userId: 'u1' } }])
      .when({ type: 'AssignApiToken', userId: 'u2' })
      .thenRefuses('conflict');
  });
});

describe('API token backfill marker', () => {
  it('records the backfill once; a second process finishing it records nothing', () => {
    const backfill = () => specFor(apiTokenBackfillDecider, { now: new Date() });
    backfill()
      .given([])
      .when({ type: 'RecordApiTokenBackfill', found: 2 })
      .thenEvents([{ type: 'ApiTokensBackfilled', data: { found: 2 } }]);
    backfill()
      .given([{ type: 'ApiTokensBackfilled', data: { found: 2 } }])
      .when({ type: 'RecordApiTokenBackfill', found: 2 })
      .thenEvents([]);
  });
});
