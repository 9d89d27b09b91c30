import { routes } from '@mrn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing.ts';

// Bodies built to exhaust the server, sent without signing in (issue 20, item 1: 2,000 nested arrays
// overflowed the stack of the walk that looks for unsafe characters, a 500 for anyone).

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const eventCount = async () =>
  Number((await server.db.pool.query('select count(*)::int as n from events')).rows[0].n);

const post = (url: string, payload: string) =>
  server.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });

describe('deeply nested JSON', () => {
  it.each([
    ['sign-in', routes.login.path],
    ['partner API token', routes.getApiToken.path],
    ['dispute form', routes.createDispute.path],
  ])('%s: 2,000 nested arrays are a 400 naming the body, and nothing is written', async (_, url) => {
    const before = await eventCount();
    for (const payload of [
      '['.repeat(2000) + ']'.repeat(2000),
      `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
    ]) {
      const res = await post(url, payload);
      expect(res.statusCode).toBe(400);
      // The partner API answers in its `{ errors, data }` envelope, the dashboard API with `fields`.
      const body = res.json();
      expect(body.fields ?? body.errors).toEqual([
        { field: 'body', message: 'is nested more than 32 levels deep' },
      ]);
    }
    expect(await eventCount()).toBe(before);
  });

  it('answers a nesting at the limit by its schema, not by the depth rule', async () => {
    const res = await post(
      routes.login.path,
      JSON.stringify({ auth: { email: '['.repeat(40), password: 'x' } }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('nested');
    const deepButAllowed = `{"auth":${'['.repeat(30)}${']'.repeat(30)}}`;
    const answer = await post(routes.login.path, deepButAllowed);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().fields[0].field).toMatch(/^auth/);
  });

  it('a body over 1 MiB is a 413, before it is parsed', async () => {
    const res = await post(routes.login.path, JSON.stringify({ auth: { email: 'a'.repeat(1_100_000) } }));
    expect(res.statusCode).toBe(413);
  });
});
