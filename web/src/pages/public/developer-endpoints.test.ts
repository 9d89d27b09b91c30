import { describe, expect, it } from 'vitest';
import { curlExample, ENDPOINTS } from './developer-endpoints.ts';

describe('developer guide endpoints', () => {
  it('lists the v2 endpoints of accounts spec §7, subscriptions marked', () => {
    expect(ENDPOINTS.map((e) => `${e.method} ${e.path}`)).toContain('POST /api/v2/token');
    expect(ENDPOINTS.filter((e) => e.subscriptions).map((e) => e.path)).toEqual([
      '/api/v2/merchant_subscriptions',
      '/api/v2/merchant_subscriptions/{ein}',
      '/api/v2/delete_merchant_subscription/{ein}',
    ]);
  });

  it('builds curl commands, with test_ credentials in the sandbox', () => {
    const token = ENDPOINTS.find((e) => e.id === 'token')!;
    expect(curlExample(token, 'https://mrn.example', 'sandbox')).toContain('test_mrn_');
    const search = ENDPOINTS.find((e) => e.id === 'search')!;
    expect(curlExample(search, 'https://mrn.example', 'production')).toBe(
      "curl -X GET 'https://mrn.example/api/v2/merchants/{ein_or_keywords}' \\\n  -H 'Authorization: <API token>'",
    );
  });
});
