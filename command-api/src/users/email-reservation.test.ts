import { describe, it } from 'vitest';
import { specFor } from '../testing.ts';
import { EMAIL_TAKEN, emailReservationDecider } from './email-reservation.ts';

const spec = specFor(emailReservationDecider, { now: new Date() });
const email = 'ann@funder.example';

describe('e-mail reservation decider', () => {
  it('reserves a free address', () => {
    spec
      .given([])
      .when({ type: 'ReserveEmail', email, userId: 'u1' })
      .thenEvents([{ type: 'EmailReserved', data: { email, userId: 'u1' } }]);
  });

  it('refuses an address held by another user', () => {
    spec
      .given([{ type: 'EmailReserved', data: { email, userId: 'u1' } }])
      .when({ type: 'ReserveEmail', email, userId: 'u2' })
      .thenRefuses('conflict', EMAIL_TAKEN);
  });

  it('is idempotent for the holder and frees the address on release', () => {
    const reserved = { type: 'EmailReserved' as const, data: { email, userId: 'u1' } };
    spec.given([reserved]).when({ type: 'ReserveEmail', email, userId: 'u1' }).thenEvents([]);
    spec
      .given([reserved, { type: 'EmailReleased', data: { email, userId: 'u1' } }])
      .when({ type: 'ReserveEmail', email, userId: 'u2' })
      .thenEvents([{ type: 'EmailReserved', data: { email, userId: 'u2' } }]);
  });
});
