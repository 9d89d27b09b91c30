import { describe, it } from 'vitest';
import { specFor } from '../testing.ts';
import { apiTokenDecider } from './api-token-reservation.ts';

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
