import { describe, it } from 'vitest';
import { specFor } from '../testing.ts';
import { einDecider, MERCHANT_EXISTS } from './ein-reservation.ts';

const spec = specFor(einDecider, { now: new Date() });
const reserved = { type: 'EinReserved' as const, data: { fein: '123456789', merchantId: 'm1' } };

describe('EIN reservation decider', () => {
  it('reserves a never-reserved EIN', () => {
    spec
      .given([])
      .when({ type: 'ReserveEin', fein: '123456789', merchantId: 'm1', holderIsLive: false })
      .thenEvents([reserved]);
  });
  it('refuses an EIN held by a live merchant with 409 naming it', () => {
    spec
      .given([reserved])
      .when({ type: 'ReserveEin', fein: '123456789', merchantId: 'm2', holderIsLive: true })
      .thenRefuses('conflict', MERCHANT_EXISTS);
  });
  it('takes over an EIN whose holder was archived, or that was released', () => {
    spec
      .given([reserved])
      .when({ type: 'ReserveEin', fein: '123456789', merchantId: 'm2', holderIsLive: false })
      .thenEvents([{ type: 'EinReserved', data: { fein: '123456789', merchantId: 'm2' } }]);
    spec
      .given([reserved, { type: 'EinReleased', data: { fein: '123456789', merchantId: 'm1' } }])
      .when({ type: 'ReserveEin', fein: '123456789', merchantId: 'm2', holderIsLive: true })
      .thenEvents([{ type: 'EinReserved', data: { fein: '123456789', merchantId: 'm2' } }]);
  });
  it('releases only for its holder', () => {
    spec.given([reserved]).when({ type: 'ReleaseEin', fein: '123456789', merchantId: 'm2' }).thenEvents([]);
    spec
      .given([reserved])
      .when({ type: 'ReleaseEin', fein: '123456789', merchantId: 'm1' })
      .thenEvents([{ type: 'EinReleased', data: { fein: '123456789', merchantId: 'm1' } }]);
  });
});
