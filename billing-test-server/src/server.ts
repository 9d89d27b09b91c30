import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import Stripe from 'stripe';
import { wallClock } from './calendar.ts';
import { getPrice, listPrices, seedCatalog } from './catalog.ts';
import { advanceClock, createClock, getClock } from './clock.ts';
import { payInvoice } from './collection.ts';
import { type Ctx, customerNow } from './context.ts';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './customers.ts';
import {
  authenticationError,
  invalidRequest,
  parameterMissing,
  resourceMissing,
  StripeApiError,
  unrecognizedUrl,
} from './errors.ts';
import { recordEvent } from './events.ts';
import { expand } from './expand.ts';
import {
  checkKnown,
  expandParam,
  isRecord,
  optionalArray,
  optionalBoolean,
  optionalString,
  type Params,
  parseForm,
} from './form.ts';
import { randomText } from './ids.ts';
import { invoicePage, payInvoiceFromPage } from './invoice-page.ts';
import { getInvoice, listInvoiceLines, listInvoices } from './invoices.ts';
import { PAGE_PARAMS, paginate } from './lists.ts';
import {
  attachPaymentMethod,
  createPaymentMethod,
  createToken,
  detachPaymentMethod,
  getPaymentMethod,
  getToken,
  listPaymentMethods,
} from './payment-methods.ts';
import { invoicePdf } from './pdf.ts';
import { createPortalSession, type PageResult, portalPage, portalSubmit } from './portal.ts';
import { createPreview } from './preview.ts';
import { type AfterFinalRetry, State } from './state.ts';
import {
  cancelSubscription,
  createSubscription,
  getSubscription,
  listSubscriptions,
  updateSubscription,
} from './subscriptions.ts';
import { WebhookSender } from './webhooks.ts';

export interface ServerConfig {
  host: string;
  port: number;
  secretKey: string;
  publishableKey: string;
  webhookUrl: string | null;
  webhookSecret: string;
  afterFinalRetry?: AfterFinalRetry;
}

type Method = 'GET' | 'POST' | 'DELETE';
interface Call {
  params: Params;
  path: Record<string, string>;
  ip: string;
}

const NO_KEY =
  "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.";
const PUBLISHABLE_KEY =
  'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.';

function maskKey(key: string): string {
  const prefix = /^(sk|pk|rk)_(test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}${'*'.repeat(Math.max(0, key.length - prefix.length - 4))}${key.slice(-4)}`;
}

function bearerKey(request: FastifyRequest): string | null {
  const auth = request.headers.authorization;
  if (!auth) return null;
  if (/^bearer /i.test(auth)) return auth.slice(7).trim() || null;
  if (/^basic /i.test(auth)) {
    const user = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':')[0];
    return user || null;
  }
  return null;
}

/** The event's `created`: the clock time of the customer whose object changed. */
function eventTime(state: State, object: object): number {
  const o = object as Record<string, unknown>;
  if (o.object === 'customer' && typeof o.id === 'string') return customerNow(state, o.id);
  if (typeof o.customer === 'string') return customerNow(state, o.customer);
  if (o.object === 'test_helpers.test_clock' && typeof o.frozen_time === 'number') return o.frozen_time;
  return wallClock();
}

export async function createServer(config: ServerConfig) {
  const state = new State();
  state.afterFinalRetry = config.afterFinalRetry ?? 'cancel';
  seedCatalog(state);
  let baseUrl = '';
  const webhooks = new WebhookSender(config.webhookUrl, config.webhookSecret);
  const ctx: Ctx = {
    state,
    baseUrl: () => baseUrl,
    emit(type, object, before) {
      const event = recordEvent(state, {
        type,
        object,
        ...(before ? { before } : {}),
        created: eventTime(state, object),
        apiVersion: Stripe.API_VERSION,
        pendingWebhooks: webhooks.url ? 1 : 0,
      });
      webhooks.enqueue(event);
    },
  };

  const app = Fastify({ logger: false, routerOptions: { querystringParser: (text) => parseForm(text) } });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      try {
        done(null, parseForm(body as string));
      } catch (e) {
        done(e as Error, undefined);
      }
    },
  );

  const sendError = (reply: FastifyReply, e: StripeApiError) => reply.code(e.status).send({ error: e.body });

  function authenticate(request: FastifyRequest, params: Params, publishable: boolean): string {
    let key = bearerKey(request);
    // Stripe.js sends the publishable key in the form body rather than in a header.
    if (!key && publishable && typeof params.key === 'string') key = params.key;
    if (!key) throw authenticationError(NO_KEY);
    if (key === config.secretKey) return key;
    if (key === config.publishableKey) {
      if (publishable) return key;
      throw authenticationError(PUBLISHABLE_KEY);
    }
    throw authenticationError(`Invalid API Key provided: ${maskKey(key)}`);
  }

  /**
   * One Stripe API route: key check, Idempotency-Key replay, parameters from the form body (POST)
   * or the query string (GET, DELETE, as the SDK sends them), `expand[]` on the answer.
   */
  function api(
    method: Method,
    url: string,
    handler: (call: Call) => unknown,
    opts: { publishable?: boolean } = {},
  ): void {
    app.route({
      method,
      url,
      handler: async (request, reply) => {
        const requestId = `req_${randomText(14)}`;
        reply.header('request-id', requestId).header('stripe-version', Stripe.API_VERSION);
        const raw = method === 'POST' ? request.body : request.query;
        const params: Params = isRecord(raw) ? { ...raw } : {};
        try {
          const key = authenticate(request, params, opts.publishable ?? false);
          delete params.key;
          const idempotencyKey = method === 'POST' ? request.headers['idempotency-key'] : undefined;
          const cacheKey =
            typeof idempotencyKey === 'string' && idempotencyKey ? `${key}\n${idempotencyKey}` : null;
          const fingerprint = `${method} ${request.url} ${JSON.stringify(params)}`;
          const prior = cacheKey ? state.idempotency.get(cacheKey) : undefined;
          if (prior) {
            if (prior.fingerprint !== fingerprint) {
              throw new StripeApiError(400, {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              });
            }
            reply.header('idempotent-replayed', 'true');
            return reply.code(prior.status).send(prior.body);
          }
          state.request = {
            id: requestId,
            idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : null,
          };
          let status = 200;
          let body: unknown;
          try {
            const result = await handler({
              params,
              path: request.params as Record<string, string>,
              ip: request.ip,
            });
            body = expand(state, result, expandParam(params));
          } catch (e) {
            if (!(e instanceof StripeApiError)) throw e;
            status = e.status;
            body = { error: e.body };
          } finally {
            state.request = null;
          }
          if (cacheKey) state.idempotency.set(cacheKey, { fingerprint, status, body });
          return reply.code(status).send(body);
        } catch (e) {
          if (e instanceof StripeApiError) return sendError(reply, e);
          throw e;
        }
      },
    });
  }

  const sendPage = (reply: FastifyReply, result: PageResult) => {
    if (result.redirect) return reply.code(result.status).header('location', result.redirect).send();
    return reply.code(result.status).type('text/html; charset=utf-8').send(result.html);
  };

  // Customers
  api('POST', '/v1/customers', ({ params }) => createCustomer(ctx, params));
  api('GET', '/v1/customers', ({ params }) => listCustomers(state, params));
  api('GET', '/v1/customers/:id', ({ params, path }) => {
    checkKnown(params, ['expand']);
    return getCustomer(state, path.id!);
  });
  api('POST', '/v1/customers/:id', ({ params, path }) => updateCustomer(ctx, path.id!, params));
  api('GET', '/v1/customers/:id/payment_methods', ({ params, path }) => {
    getCustomer(state, path.id!);
    return listPaymentMethods(state, path.id!, params, `/v1/customers/${path.id}/payment_methods`);
  });

  // Tokens: the one route a browser calls, with the publishable key, from another origin.
  app.options('/v1/tokens', (request, reply) => {
    reply
      .code(204)
      .header('access-control-allow-origin', request.headers.origin ?? '*')
      .header('access-control-allow-methods', 'POST, OPTIONS')
      .header('access-control-allow-headers', 'Authorization, Content-Type, Stripe-Version, Idempotency-Key')
      .header('access-control-max-age', '600')
      .header('vary', 'Origin')
      .send();
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.split('?')[0] === '/v1/tokens') {
      reply.header('access-control-allow-origin', request.headers.origin ?? '*').header('vary', 'Origin');
    }
    return payload;
  });
  api('POST', '/v1/tokens', ({ params, ip }) => createToken(ctx, params, ip), { publishable: true });
  api('GET', '/v1/tokens/:id', ({ params, path }) => {
    checkKnown(params, ['expand']);
    return getToken(state, path.id!);
  });

  // Payment methods
  api('POST', '/v1/payment_methods', ({ params }) => createPaymentMethod(ctx, params));
  api('GET', '/v1/payment_methods', ({ params }) => {
    const customer = optionalString(params, 'customer');
    if (!customer) throw parameterMissing('customer');
    getCustomer(state, customer, 'customer');
    return listPaymentMethods(state, customer, params, '/v1/payment_methods');
  });
  api('GET', '/v1/payment_methods/:id', ({ params, path }) => {
    checkKnown(params, ['expand']);
    return getPaymentMethod(state, path.id!);
  });
  api('POST', '/v1/payment_methods/:id/attach', ({ params, path }) => {
    checkKnown(params, ['customer', 'expand']);
    const customer = optionalString(params, 'customer');
    if (!customer) throw parameterMissing('customer');
    getCustomer(state, customer, 'customer');
    if (!path.id!.startsWith('pm_card_')) getPaymentMethod(state, path.id!);
    return attachPaymentMethod(ctx, path.id!, customer);
  });
  api('POST', '/v1/payment_methods/:id/detach', ({ params, path }) => {
    checkKnown(params, ['expand']);
    return detachPaymentMethod(ctx, path.id!);
  });

  // Catalog
  api('GET', '/v1/prices', ({ params }) => listPrices(state, params));
  api('GET', '/v1/prices/:id', ({ params, path }) => {
    checkKnown(params, ['expand']);
    return getPrice(state, path.id!);
  });
  api('GET', '/v1/products', ({ params }) => {
    checkKnown(params, ['active', ...PAGE_PARAMS]);
    return paginate([...state.products.values()], params, '/v1/products');
  });
  api('GET', '/v1/products/:id', ({ params, path }) => {
    checkKnown(params, ['expand']);
    const product = state.products.get(path.id!);
    if (!product) throw resourceMissing('product', path.id!, 'id');
    return product;
  });

  // Subscriptions
  api('POST', '/v1/subscriptions', ({ params }) => createSubscription(ctx, params));
  api('GET', '/v1/subscriptions', ({ params }) => listSubscriptions(state, params));
  api('GET', '/v1/subscriptions/:id', ({ params, path }) => {
    checkKnown(params, ['expand']);
    return getSubscription(state, path.id!);
  });
  api('POST', '/v1/subscriptions/:id', ({ params, path }) => updateSubscription(ctx, path.id!, params));
  api('DELETE', '/v1/subscriptions/:id', ({ params, path }) => cancelSubscription(ctx, path.id!, params));

  // Invoices
  api('GET', '/v1/invoices', ({ params }) => listInvoices(state, params));
  api('POST', '/v1/invoices/create_preview', ({ params }) => createPreview(ctx, params));
  api('GET', '/v1/invoices/:id', ({ params, path }) => {
    checkKnown(params, ['expand']);
    return getInvoice(state, path.id!);
  });
  api('GET', '/v1/invoices/:id/lines', ({ params, path }) => listInvoiceLines(state, path.id!, params));
  api('POST', '/v1/invoices/:id/pay', ({ params, path }) => payInvoice(ctx, path.id!, params));

  // Billing portal
  api('POST', '/v1/billing_portal/sessions', ({ params }) => createPortalSession(ctx, params));
  app.get('/p/session/:token', (request, reply) =>
    sendPage(reply, portalPage(state, (request.params as { token: string }).token)),
  );
  app.post('/p/session/:token', (request, reply) => {
    const body = isRecord(request.body) ? request.body : {};
    return sendPage(reply, portalSubmit(ctx, (request.params as { token: string }).token, body));
  });

  // Hosted invoice page and PDF: unauthenticated, reachable only through their secret links.
  const linkedInvoice = (token: string) => {
    const id = state.invoiceLinks.get(token);
    return id ? state.invoices.get(id) : undefined;
  };
  app.get('/invoice/:token', (request, reply) => {
    const { token } = request.params as { token: string };
    const invoice = linkedInvoice(token);
    if (!invoice) return reply.code(404).type('text/plain').send('Not found');
    return reply.type('text/html; charset=utf-8').send(invoicePage(invoice, token));
  });
  app.post('/invoice/:token', (request, reply) => {
    const { token } = request.params as { token: string };
    const invoice = linkedInvoice(token);
    if (!invoice) return reply.code(404).type('text/plain').send('Not found');
    return sendPage(
      reply,
      payInvoiceFromPage(ctx, invoice, token, isRecord(request.body) ? request.body : {}),
    );
  });
  app.get('/invoice/:token/pdf', (request, reply) => {
    const invoice = linkedInvoice((request.params as { token: string }).token);
    if (!invoice) return reply.code(404).type('text/plain').send('Not found');
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="Invoice-${invoice.number}.pdf"`)
      .send(invoicePdf(invoice));
  });

  // Test clocks
  api('POST', '/v1/test_helpers/test_clocks', ({ params }) => createClock(ctx, params));
  api('GET', '/v1/test_helpers/test_clocks/:id', ({ params, path }) => {
    checkKnown(params, ['expand']);
    return getClock(state, path.id!);
  });
  api('POST', '/v1/test_helpers/test_clocks/:id/advance', ({ params, path }) =>
    advanceClock(ctx, path.id!, params),
  );

  // Events
  api('GET', '/v1/events', ({ params }) => {
    checkKnown(params, ['type', 'types', ...PAGE_PARAMS]);
    const type = optionalString(params, 'type');
    const types = optionalArray(params, 'types');
    const matches = (t: string) =>
      (type === undefined || (type.endsWith('.*') ? t.startsWith(type.slice(0, -1)) : t === type)) &&
      (types === undefined || types.includes(t));
    return paginate(
      [...state.events.values()].filter((e) => matches(e.type)),
      params,
      '/v1/events',
    );
  });
  api('GET', '/v1/events/:id', ({ params, path }) => {
    checkKnown(params, ['expand']);
    const event = state.events.get(path.id!);
    if (!event) throw resourceMissing('event', path.id!, 'id');
    return event;
  });

  // Test helpers (not Stripe's): see what was delivered, deliver again, deliver in a chosen order.
  const eventById = (id: string, param: string) => {
    const event = state.events.get(id);
    if (!event) throw resourceMissing('event', id, param);
    return event;
  };
  const targetUrl = (params: Params) => {
    const url = optionalString(params, 'url') || webhooks.url;
    if (!url) throw invalidRequest('No webhook URL is configured; pass url.', 'url');
    return url;
  };
  api('GET', '/_test/deliveries', ({ params }) => {
    checkKnown(params, ['event', 'type']);
    const event = optionalString(params, 'event');
    const type = optionalString(params, 'type');
    const data = webhooks.deliveries.filter(
      (d) => (event === undefined || d.event === event) && (type === undefined || d.type === type),
    );
    return { object: 'list', data, pending: webhooks.pending() };
  });
  api('POST', '/_test/deliveries/wait', async ({ params }) => {
    checkKnown(params, []);
    await webhooks.idle();
    return { object: 'list', data: webhooks.deliveries, pending: webhooks.pending() };
  });
  api('POST', '/_test/deliveries/hold', ({ params }) => {
    checkKnown(params, ['held']);
    // A form sends 'true'/'false'; the test helpers' JSON a boolean.
    const held = typeof params.held === 'boolean' ? params.held : optionalBoolean(params, 'held');
    if (held === undefined) throw parameterMissing('held');
    webhooks.hold(held);
    return { object: 'webhook_delivery_hold', held, pending: webhooks.pending() };
  });
  api('POST', '/_test/events/:id/resend', async ({ params, path }) => {
    checkKnown(params, ['url']);
    return webhooks.send(eventById(path.id!, 'id'), targetUrl(params), 'resend');
  });
  api('POST', '/_test/deliver', async ({ params }) => {
    checkKnown(params, ['events', 'url']);
    const ids = optionalArray(params, 'events');
    if (!ids || ids.length === 0) throw parameterMissing('events');
    const events = ids.map((id, i) => eventById(String(id), `events[${i}]`));
    const url = targetUrl(params);
    const data = [];
    for (const event of events) data.push(await webhooks.send(event, url, 'ordered'));
    return { object: 'list', data };
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, unrecognizedUrl(request.method, request.url.split('?')[0] ?? request.url)),
  );
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    if (error instanceof StripeApiError) return sendError(reply, error);
    const status = error.statusCode ?? 500;
    if (status < 500) return sendError(reply, invalidRequest(error.message));
    return reply
      .code(500)
      .send({ error: { type: 'api_error', message: `Internal error: ${error.message}` } });
  });

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address() as AddressInfo;
  // Listening on every interface still means "connect to me here" for local clients.
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  return {
    url: baseUrl,
    host,
    port: address.port,
    state,
    webhooks,
    async close(): Promise<void> {
      await webhooks.stop();
      await app.close();
    },
  };
}
