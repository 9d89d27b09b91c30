import { describe, expect, it } from 'vitest';
import { routes } from '../routes/index.ts';
import { PartnerErrorBody, partnerRoutes } from '../routes/partner-api.ts';
import {
  PARTNER_ANSWER_EXAMPLES,
  PARTNER_ERROR_EXAMPLE,
  PARTNER_SANDBOX_ANSWER_EXAMPLES,
  PartnerErrorAnswer,
  partnerOpenApiDocument,
  SANDBOX_MERCHANT_EIN,
} from '../routes/partner-api-document.ts';
import { z } from '../zod.ts';
import { openApiDocument, openApiMismatches, openApiPath, pathSpellingConflicts } from './openapi.ts';
import { type RouteSpec, route } from './route.ts';

const doc = () => partnerOpenApiDocument({ baseUrl: 'https://mrn.example/', productName: 'MRN' });

describe('the partner OpenAPI document', () => {
  it('has one operation per partner route, at its path and method, and nothing else', () => {
    expect(openApiMismatches(doc(), partnerRoutes)).toEqual([]);
    const operations = Object.values(doc().paths).flatMap((byMethod) => Object.values(byMethod));
    expect(operations.map((o) => o.operationId).sort()).toEqual(Object.keys(partnerRoutes).sort());
  });

  it('lists production and sandbox addresses, without a doubled slash', () => {
    expect(doc().servers).toEqual([
      { url: 'https://mrn.example', description: 'Production' },
      { url: 'https://mrn.example/sandbox', description: 'Sandbox' },
    ]);
  });

  it('reports a route without its operation, an extra operation and wrong path parameters', () => {
    const broken = doc();
    const search = broken.paths['/api/v2/merchants/{key}']!.get!;
    // A path parameter renamed in the document but not in the route.
    search.parameters = [{ ...search.parameters[0]!, name: 'ein' }];
    // An operation that no route serves, and a route whose operation is gone.
    broken.paths['/api/v2/merchants/{key}']!.delete = { ...search, operationId: 'partnerDeleteMerchant' };
    delete broken.paths['/api/v2/token'];
    expect(openApiMismatches(broken, partnerRoutes)).toEqual([
      'getApiToken: no operation at POST /api/v2/token',
      'partnerSearchMerchants: path parameters [ein] but the path has [key]',
      'partnerDeleteMerchant: DELETE /api/v2/merchants/{key} is not a route',
    ]);
  });

  it('catches a route whose params schema does not name its path parameter', () => {
    const table = {
      mismatched: route({
        method: 'GET',
        path: '/api/v2/things/:thing_id',
        service: 'query',
        access: 'api',
        params: z.object({ id: z.string() }),
        response: z.object({}),
      }),
    };
    const generated = openApiDocument(table, {
      title: 't',
      version: '1',
      description: 'd',
      servers: [],
      errorBody: PartnerErrorBody,
    });
    expect(openApiMismatches(generated, table)).toEqual([
      'mismatched: path parameters [id] but the path has [thing_id]',
    ]);
  });

  it('refuses two routes at one path and method', () => {
    const spec = { method: 'GET', service: 'query', access: 'api', response: z.object({}) } as const;
    expect(() =>
      openApiDocument(
        { a: route({ ...spec, path: '/x/:id' }), b: route({ ...spec, path: '/x/:key' }) },
        { title: 't', version: '1', description: 'd', servers: [], errorBody: PartnerErrorBody },
      ),
    ).toThrow('GET /x/{key} is declared twice (b)');
  });

  it('shows a request example on every call, and each one parses with the route’s own schemas', () => {
    for (const [name, spec] of Object.entries(partnerRoutes as Record<string, RouteSpec>)) {
      const example = spec.docs?.example;
      const parts = [
        ['params', spec.params, example?.params],
        ['query', spec.query, example?.query],
        ['body', spec.body, example?.body],
      ] as const;
      for (const [part, schema, value] of parts) {
        // A call that takes a part shows it, and one that takes none shows none.
        expect(value === undefined, `${name} example ${part}`).toBe(schema === undefined);
        if (!schema) continue;
        const parsed = schema.safeParse(value);
        expect(parsed.error?.issues ?? [], `${name} example ${part}`).toEqual([]);
      }
    }
  });

  it('shows an answer for every call that the route’s response schema accepts', () => {
    const operations = Object.values(doc().paths).flatMap((byMethod) => Object.values(byMethod));
    for (const operation of operations) {
      const [status, answer] = Object.entries(operation.responses).find(([s]) => s.startsWith('2'))!;
      expect(answer.content?.['application/json']?.example, `${operation.operationId} ${status}`).toEqual(
        PARTNER_ANSWER_EXAMPLES[operation.operationId as keyof typeof PARTNER_ANSWER_EXAMPLES],
      );
    }
    for (const [name, example] of Object.entries(PARTNER_ANSWER_EXAMPLES)) {
      const parsed = partnerRoutes[name as keyof typeof partnerRoutes].response.safeParse(example);
      expect(parsed.error?.issues ?? [], name).toEqual([]);
    }
    expect(PartnerErrorAnswer.safeParse(PARTNER_ERROR_EXAMPLE).success).toBe(true);
  });

  it('takes an example EIN as the search key in production, and documents Idempotency-Key on the creates', () => {
    const search = doc().paths['/api/v2/merchants/{key}']!.get!;
    expect(search.parameters).toEqual([
      expect.objectContaining({ name: 'key', in: 'path', required: true, example: '123456789' }),
    ]);
    const withKey = Object.values(doc().paths)
      .flatMap((byMethod) => Object.values(byMethod))
      .filter((o) => o.parameters.some((p) => p.name === 'Idempotency-Key'))
      .map((o) => o.operationId);
    expect(withKey.sort()).toEqual([
      'partnerAddMerchant',
      'partnerAddMerchantWithAdditionalData',
      'partnerAddNote',
      'partnerAddNoteWithAdditionalData',
      'partnerCreateScreening',
    ]);
  });

  it('never shows the sandbox merchant in a production example; the sandbox examples ask about it', () => {
    const sandboxEin = SANDBOX_MERCHANT_EIN.replace('-', '');
    const operations = Object.values(doc().paths).flatMap((byMethod) => Object.values(byMethod));
    for (const operation of operations) {
      const { 'x-sandbox-example': sandbox, ...production } = operation;
      expect(JSON.stringify(production), operation.operationId).not.toContain(sandboxEin);
      if (!sandbox) continue;
      expect(JSON.stringify(sandbox), operation.operationId).toContain(sandboxEin);
      expect(JSON.stringify(sandbox), operation.operationId).not.toContain('123456789');
    }
    const search = doc().paths['/api/v2/merchants/{key}']!.get!;
    expect(search['x-sandbox-example']).toEqual({
      params: { key: sandboxEin },
      answer: PARTNER_SANDBOX_ANSWER_EXAMPLES.partnerSearchMerchants,
    });
    // The note's sandbox body is the production one about the sandbox's merchant.
    expect(doc().paths['/api/v2/notes']!.post!['x-sandbox-example']?.body).toEqual({
      ...(partnerRoutes.partnerAddNote.docs.example.body as object),
      fein: sandboxEin,
    });
    // Each sandbox example parses with the route's schemas, and so does its answer.
    for (const [name, spec] of Object.entries(partnerRoutes as Record<string, RouteSpec>)) {
      const sandbox = doc().paths[openApiPath(spec.path)]![spec.method.toLowerCase()]!['x-sandbox-example'];
      if (!sandbox) continue;
      if (sandbox.params) expect(spec.params?.safeParse(sandbox.params).success, name).toBe(true);
      if (sandbox.body) expect(spec.body?.safeParse(sandbox.body).success, name).toBe(true);
      expect(spec.response.safeParse(sandbox.answer).success, name).toBe(true);
    }
  });

  it('offers exactly the note categories a partner may use: never Merchant Dispute', () => {
    const body = doc().paths['/api/v2/notes']!.post!.requestBody!.content['application/json'].schema as {
      properties: { note_category: { enum: string[] } };
    };
    expect(body.properties.note_category.enum).not.toContain('Merchant Dispute');
    expect(body.properties.note_category.enum).toContain('Slow Pay');
    const refused = partnerRoutes.partnerAddNote.body.safeParse({
      fein: '123456789',
      note_category: 'Merchant Dispute',
      note: 'x',
    });
    expect(refused.error?.issues[0]?.message).not.toContain('Merchant Dispute');
    expect(refused.error?.issues[0]?.message).toMatch(/^must be one of: Default Account, /);
  });

  it('leaves answers open to new fields but keeps requests exact', () => {
    const text = JSON.stringify(doc().paths['/api/v2/notes']!.post!.responses);
    expect(text).not.toContain('"additionalProperties":false');
    const refusal = (doc().components as { schemas: { Error: { properties: object } } }).schemas.Error;
    expect(Object.keys(refusal.properties)).toEqual(['errors', 'data', 'request_id']);
  });

  it('marks PRO calls and tags subscription calls apart', () => {
    const operations = Object.values(doc().paths).flatMap((byMethod) => Object.values(byMethod));
    const byTag = (tag: string) =>
      operations
        .filter((o) => o.tags.includes(tag))
        .map((o) => o.operationId)
        .sort();
    expect(byTag('Authentication')).toEqual(['getApiToken']);
    expect(byTag('Merchant subscriptions')).toEqual([
      'partnerDeleteSubscription',
      'partnerGetSubscription',
      'partnerSubscribe',
    ]);
    expect(operations.find((o) => o.operationId === 'partnerSearchHistory')?.['x-required-plan']).toBe('PRO');
    expect(operations.find((o) => o.operationId === 'partnerSearchMerchants')?.['x-required-plan']).toBe(
      undefined,
    );
  });
});

describe('route paths', () => {
  it('spell each path one way: the same segments always carry the same parameter names', () => {
    expect(pathSpellingConflicts(routes)).toEqual([]);
  });

  it('would catch a path spelt with two parameter names', () => {
    const spec = { service: 'query', access: 'member', response: z.object({}) } as const;
    expect(
      pathSpellingConflicts({
        listNotes: route({ ...spec, method: 'GET', path: '/api/merchants/:id/notes' }),
        addNote: route({ ...spec, method: 'POST', path: '/api/merchants/:merchant_id/notes' }),
        getMerchant: route({ ...spec, method: 'GET', path: '/api/merchants/:id' }),
      }),
    ).toEqual(['/api/merchants/:id/notes (listNotes) vs /api/merchants/:merchant_id/notes (addNote)']);
  });

  it('turns Fastify parameters into OpenAPI ones', () => {
    expect(openApiPath('/api/v2/merchants/:key/notes/:note_id')).toBe(
      '/api/v2/merchants/{key}/notes/{note_id}',
    );
  });
});
