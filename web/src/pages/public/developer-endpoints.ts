/** The partner API v2 of accounts spec §7, as the developer guide lists it. */
export interface Endpoint {
  id: string;
  method: 'GET' | 'POST';
  path: string;
  title: string;
  description: string;
  /** JSON body of a POST, as an example. */
  body?: Record<string, unknown>;
  /** Shown only to accounts with merchant subscriptions enabled (accounts §7). */
  subscriptions?: boolean;
}

const NOTE = { note_category: 'Slow Pay', note: 'Two missed payments in March; caught up in April.' };

export const ENDPOINTS: Endpoint[] = [
  {
    id: 'token',
    method: 'POST',
    path: '/api/v2/token',
    title: 'Get an API token',
    description:
      'Exchange your authentication token and key for an API token. Send it as the Authorization header of every other call; it lasts 24 hours.',
    body: { auth: { authentication_token: 'mrn_…', authentication_key: '…' } },
  },
  {
    id: 'search',
    method: 'GET',
    path: '/api/v2/merchants/{ein_or_keywords}',
    title: 'Search merchants',
    description:
      'A 9-digit EIN finds that merchant; legal-name keywords return up to 5 merchants (25 on PRO). More matches ask you to narrow the search.',
  },
  {
    id: 'add-merchant',
    method: 'POST',
    path: '/api/v2/merchants',
    title: 'Add a merchant with its first note',
    description:
      'fein, legal_name, city, state, note_category and note are required; dba, street1, street2, business_phone, business_startdate and industry are optional.',
    body: {
      fein: '123456789',
      legal_name: 'Sunrise Diner Inc',
      dba: 'Sunrise Diner',
      street1: '100 Main St',
      street2: null,
      city: 'Tampa',
      state: 'FL',
      business_phone: '813-555-0100',
      business_startdate: '2019-04-01',
      industry: 'Restaurant',
      ...NOTE,
    },
  },
  {
    id: 'add-note',
    method: 'POST',
    path: '/api/v2/notes',
    title: 'Add a note to a merchant',
    description: 'Identify the merchant by its 9-digit EIN.',
    body: { fein: '123456789', ...NOTE },
  },
  {
    id: 'search-additional',
    method: 'GET',
    path: '/api/v2/merchants_with_additional_data/{ein_or_keywords}',
    title: 'Search merchants with submission source data',
    description: 'As Search merchants, with each note’s submission source and broker name (PRO).',
  },
  {
    id: 'add-merchant-additional',
    method: 'POST',
    path: '/api/v2/merchants_with_additional_data',
    title: 'Add a merchant with submission source',
    description:
      'As Add a merchant, plus submission_source (in-house or broker) and broker_name, required when the source is broker.',
    body: {
      fein: '123456789',
      legal_name: 'Sunrise Diner Inc',
      city: 'Tampa',
      state: 'FL',
      ...NOTE,
      submission_source: 'broker',
      broker_name: 'Main Street ISO',
    },
  },
  {
    id: 'add-note-additional',
    method: 'POST',
    path: '/api/v2/notes_with_additional_data',
    title: 'Add a note with submission source',
    description: 'As Add a note, plus submission_source and broker_name.',
    body: { fein: '123456789', ...NOTE, submission_source: 'in-house', broker_name: null },
  },
  {
    id: 'search-history',
    method: 'GET',
    path: '/api/v2/search_history/{ein}',
    title: 'EIN search history',
    description: 'The dates the network searched a 9-digit EIN over the last 6 months (PRO).',
  },
  {
    id: 'subscribe',
    method: 'POST',
    path: '/api/v2/merchant_subscriptions',
    title: 'Subscribe to a merchant',
    description:
      'Watch an EIN: notes and changes on it are delivered to your notification e-mail and webhook.',
    body: { fein: '123456789' },
    subscriptions: true,
  },
  {
    id: 'subscription',
    method: 'GET',
    path: '/api/v2/merchant_subscriptions/{ein}',
    title: 'Get a merchant subscription',
    description: 'Whether you subscribe to the EIN, with the subscription.',
    subscriptions: true,
  },
  {
    id: 'unsubscribe',
    method: 'GET',
    path: '/api/v2/delete_merchant_subscription/{ein}',
    title: 'Delete a merchant subscription',
    description: 'Stop watching the EIN. Answers errors and data.',
    subscriptions: true,
  },
];

export type Environment = 'production' | 'sandbox';

/** A ready-to-run curl command for an endpoint in an environment. */
export function curlExample(endpoint: Endpoint, baseUrl: string, environment: Environment): string {
  const url = `${baseUrl}${endpoint.path}`;
  const lines = [`curl -X ${endpoint.method} '${url}'`];
  if (endpoint.id !== 'token') lines.push(`  -H 'Authorization: <API token>'`);
  if (endpoint.body) {
    let body = endpoint.body;
    if (endpoint.id === 'token' && environment === 'sandbox')
      body = { auth: { authentication_token: 'test_mrn_…', authentication_key: 'test_…' } };
    lines.push(`  -H 'Content-Type: application/json'`, `  -d '${JSON.stringify(body)}'`);
  }
  return lines.join(' \\\n');
}
