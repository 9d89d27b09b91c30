import { randomUUID } from 'node:crypto';
import { streams } from '@mrn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const health = async () => {
  const res = await server.app.inject({ method: 'GET', url: '/health' });
  return { status: res.statusCode, body: res.json() };
};

describe('/health', () => {
  it('is ok while every projector is live, and 503 naming a projector halted at a poison event', async () => {
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });
    const merchantId = randomUUID();
    // Past the API, which refuses it: a date the merchants read model cannot store.
    const { position } = await server.store.appendToStream(
      streams.merchant(merchantId),
      [
        {
          id: randomUUID(),
          type: 'MerchantAdded',
          data: {
            merchantId,
            fein: '900000001',
            legalName: 'Poison Pill LLC',
            dba: null,
            street1: null,
            street2: null,
            city: 'Tampa',
            state: 'FL',
            businessPhone: null,
            businessStartdate: '2023-02-31',
            industry: null,
            accountId: randomUUID(),
            userId: randomUUID(),
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    let answer = await health();
    for (let i = 0; i < 200 && answer.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 25));
      answer = await health();
    }
    expect(answer.status).toBe(503);
    expect(answer.body.status).toBe('degraded');
    expect(answer.body.projectors).toHaveLength(1);
    expect(answer.body.projectors[0]).toMatchObject({
      name: 'merchants',
      state: 'halted',
      event: { type: 'MerchantAdded', stream_id: streams.merchant(merchantId), position },
    });
    expect(answer.body.projectors[0].lag.head >= position).toBe(true);
    expect(answer.body.projectors[0].lag.applied_through < position).toBe(true);
    expect(typeof answer.body.projectors[0].lag.seconds).toBe('number');
  });
});
