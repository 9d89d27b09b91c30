import { PARTNER_OPENAPI_PATH, partnerOpenApiDocument } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import {
  answerExample,
  baseAddress,
  codeSpans,
  curlSnippet,
  describeSchema,
  type Endpoint,
  endpointsOf,
  errorExampleOf,
  exampleUrl,
  fetchSnippet,
  type GuideDocument,
  groupByTag,
  OPENAPI_DOCUMENT_PATH,
  parameterExample,
  rateLimitHeadersOf,
  refusalsOf,
  requestExample,
} from './openapi-guide.ts';

// The guide reads the document the server serves (built here by the same function).
const doc = partnerOpenApiDocument({
  baseUrl: 'https://mrn.example',
  productName: 'MRN',
}) as unknown as GuideDocument;
const endpoint = (id: string): Endpoint => endpointsOf(doc).find((e) => e.id === id)!;

describe('the developer guide’s reading of the OpenAPI document', () => {
  it('groups the endpoints by tag, and can leave the subscription calls out', () => {
    const all = groupByTag(doc);
    expect(all.map((g) => g.tag)).toEqual(['Authentication', 'Merchants', 'Merchant subscriptions']);
    expect(all[0]!.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(['POST /api/v2/token']);
    expect(all[2]!.endpoints.map((e) => e.path)).toEqual([
      '/api/v2/merchant_subscriptions',
      '/api/v2/merchant_subscriptions/{fein}',
      '/api/v2/delete_merchant_subscription/{fein}',
    ]);
    const withoutSubscriptions = groupByTag(doc, new Set(['Merchant subscriptions']));
    expect(withoutSubscriptions.map((g) => g.tag)).toEqual(['Authentication', 'Merchants']);
  });

  it('reads each endpoint’s examples, answer and plan', () => {
    const search = endpoint('partnerSearchMerchants');
    expect(search).toMatchObject({ method: 'GET', secured: true, plan: null });
    expect(search.answer?.status).toBe('200');
    // Production: an example merchant; the sandbox: its own merchant, 01-0000001.
    expect((search.answer!.example as { data: { fein: string }[] }).data[0]!.fein).toBe('123456789');
    expect((answerExample(search, 'production') as { data: { fein: string }[] }).data[0]!.fein).toBe(
      '123456789',
    );
    expect((answerExample(search, 'sandbox') as { data: { fein: string }[] }).data[0]!.fein).toBe(
      '010000001',
    );
    const key = search.parameters[0]!;
    expect(parameterExample(search, key, 'production')).toBe('123456789');
    expect(parameterExample(search, key, 'sandbox')).toBe('010000001');
    expect(requestExample(endpoint('partnerAddNote'), 'sandbox')).toMatchObject({ fein: '010000001' });
    expect(requestExample(endpoint('partnerAddNote'), 'production')).toMatchObject({ fein: '123456789' });
    // A new merchant stays an example one in the sandbox too (its own merchant already exists).
    expect(requestExample(endpoint('partnerAddMerchant'), 'sandbox')).toMatchObject({ fein: '123456789' });
    expect(endpoint('partnerSearchHistory').plan).toBe('PRO');
    expect(endpoint('partnerAddMerchant').answer?.status).toBe('201');
    expect(endpoint('getApiToken').secured).toBe(false);
  });

  it('fills path parameters from their examples, under the chosen base address', () => {
    expect(baseAddress('https://mrn.example', 'sandbox')).toBe('https://mrn.example/sandbox');
    expect(exampleUrl(endpoint('partnerSearchMerchants'), 'https://mrn.example')).toBe(
      'https://mrn.example/api/v2/merchants/123456789',
    );
    expect(exampleUrl(endpoint('partnerSearchMerchants'), 'https://mrn.example/sandbox', 'sandbox')).toBe(
      'https://mrn.example/sandbox/api/v2/merchants/010000001',
    );
  });

  it('builds curl commands: the token from the shell, test_ credentials in the sandbox', () => {
    expect(curlSnippet(endpoint('partnerSearchMerchants'), 'https://mrn.example', 'production')).toBe(
      `curl 'https://mrn.example/api/v2/merchants/123456789' \\\n  -H "Authorization: Bearer $API_TOKEN"`,
    );
    const token = curlSnippet(endpoint('getApiToken'), 'https://mrn.example/sandbox', 'sandbox');
    expect(token).toContain(`curl -X POST 'https://mrn.example/sandbox/api/v2/token'`);
    expect(token).toContain('"authentication_token":"test_mrn_3f9c0a1b2c3d"');
    expect(token).not.toContain('Authorization');
    const production = curlSnippet(endpoint('getApiToken'), 'https://mrn.example', 'production');
    expect(production).toContain('"authentication_token":"mrn_3f9c0a1b2c3d"');
    const add = curlSnippet(endpoint('partnerAddMerchant'), 'https://mrn.example', 'production');
    expect(add).toContain(`-H 'Content-Type: application/json'`);
    expect(add).toContain(`-H 'Idempotency-Key: `);
    expect(add).toContain(`-d '{"fein":"123456789","legal_name":"Acme Coffee LLC"`);
  });

  it('quotes a single quote in a body for the shell', () => {
    const withQuote = {
      ...endpoint('partnerAddNote'),
      requestExample: { fein: '123456789', note_category: 'Other', note: "Owner's brother" },
    };
    expect(curlSnippet(withQuote, 'https://x', 'production')).toContain(`"note":"Owner'\\''s brother"`);
  });

  it('builds fetch calls that run as written', async () => {
    const snippet = fetchSnippet(endpoint('partnerAddNote'), 'https://mrn.example', 'production');
    expect(snippet).toContain("method: 'POST',");
    expect(snippet).toContain(`Authorization: \`Bearer \${apiToken}\`,`);
    // The snippet is real JavaScript: run it against a stand-in fetch and look at what it sent.
    const sent: { url: string; init: RequestInit }[] = [];
    const fakeFetch = async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return { json: async () => ({ errors: [], data: { token: 't' } }) };
    };
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
    await new AsyncFunction('fetch', 'apiToken', 'crypto', snippet)(fakeFetch, 'tok', {
      randomUUID: () => 'uuid-1',
    });
    expect(sent[0]!.url).toBe('https://mrn.example/api/v2/notes');
    expect(sent[0]!.init.headers).toEqual({
      Authorization: 'Bearer tok',
      'Content-Type': 'application/json',
      'Idempotency-Key': 'uuid-1',
    });
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual(endpoint('partnerAddNote').requestExample);

    const search = fetchSnippet(endpoint('partnerSearchMerchants'), 'https://mrn.example/sandbox', 'sandbox');
    sent.length = 0;
    await new AsyncFunction('fetch', 'apiToken', 'crypto', search)(fakeFetch, 'tok', {});
    expect(sent[0]!.url).toBe('https://mrn.example/sandbox/api/v2/merchants/010000001');
    expect(sent[0]!.init).toEqual({ headers: { Authorization: 'Bearer tok' } });
  });

  it('lists the refusals by status, and renders `code` in descriptions', () => {
    expect(refusalsOf(doc).map((r) => r.status)).toEqual([
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(codeSpans('Send an `Idempotency-Key` header')).toEqual([
      { code: false, text: 'Send an ' },
      { code: true, text: 'Idempotency-Key' },
      { code: false, text: ' header' },
    ]);
    expect(describeSchema({ type: 'string', minLength: 2, maxLength: 200 })).toBe('string, 2–200 characters');
  });

  it('finds the rate limit headers, the error example and the document where the server has them', () => {
    expect(rateLimitHeadersOf(doc).map((h) => h.name)).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ]);
    expect(errorExampleOf(doc)).toMatchObject({ data: null, errors: [{ field: 'fein' }] });
    expect(doc['x-rate-limits']).toEqual({ perApiKeyPerMinute: 600, tokenPerMinute: 20 });
    expect(OPENAPI_DOCUMENT_PATH).toBe(PARTNER_OPENAPI_PATH);
  });
});
