import {
  API_TEXTS,
  API_TOKEN_TTL_MS,
  type getApiToken,
  type partnerAddMerchant,
  type partnerAddMerchantWithAdditionalData,
  type partnerAddNote,
  type partnerAddNoteWithAdditionalData,
  type partnerDeleteSubscription,
  type partnerSubscribe,
  type RouteSpec,
} from '@mrn/contracts';
import {
  type Actor,
  forbidden,
  type Handler,
  type HandlerRequest,
  newId,
  notFound,
  type TokenClaims,
} from '@mrn/platform';
import { loadAccount } from '../accounts/account-service.ts';
import { verifyApiCredentials } from '../auth/api-credentials.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { closeSession, openSession } from '../credentials/sessions.ts';
import { subscriptions } from '../merchant-subscriptions/aggregate.ts';
import { einReservations, merchants } from '../merchants/aggregates.ts';
import { type RecordRequest, recordMerchant, recordNote } from '../merchants/records.ts';
import { partnerScreeningHandler } from '../screenings/screening-handlers.ts';

export const PARTNER_TEXTS = {
  merchantNotFound: 'No merchant has been reported with this EIN.',
} as const;

type SourceFields = { submission_source: 'in-house' | 'broker' | null; broker_name: string | null };
const noSource: SourceFields = { submission_source: null, broker_name: null };

/** What the records service needs of a partner request (an API user adds for their own funder). */
const recordRequest = (req: HandlerRequest<RouteSpec>): RecordRequest => ({
  actor: req.actor!,
  request: req.request,
  metadata: (extra) => metadataFor(req, extra),
  proxiedCreator: null,
});

/**
 * The partner API's commands (accounts spec §7). Records go through the same service as the
 * dashboard's (deciders, idempotency, attribution, events recorded with source `api`); only the
 * shapes differ.
 */
export function partnerCommandHandlers(deps: CommandDeps) {
  const now = () => deps.clock.now();

  const accountName = async (accountId: string) => {
    const { state } = await loadAccount(deps, accountId);
    return state.status === 'none' ? null : state.name;
  };

  /** The live merchant holding an EIN, from the `ein-{digits}` stream (never a lagging read model). */
  const merchantWithEin = async (fein: string): Promise<string> => {
    const { state } = await einReservations.load(deps.store, fein);
    const merchant = state.holder ? (await merchants.load(deps.store, state.holder)).state : null;
    if (!state.holder || merchant?.status !== 'live') {
      throw notFound(PARTNER_TEXTS.merchantNotFound, {
        fields: [{ field: 'fein', message: PARTNER_TEXTS.merchantNotFound }],
      });
    }
    return state.holder;
  };

  /** Subscriptions: the account must have them enabled (the plan is checked from the route table). */
  const subscriptionsEnabled = async (actor: Actor) => {
    const { state } = await loadAccount(deps, actor.accountId);
    if (state.status !== 'open' || !state.merchantSubscriptionEnabled)
      throw forbidden(API_TEXTS.subscriptionsOnly);
  };

  const tokenHandler: Handler<typeof getApiToken> = async (req) => {
    const { authentication_token, authentication_key } = req.body.auth;
    const user = await verifyApiCredentials(deps, authentication_token, authentication_key);
    const sessionId = newId();
    await openSession(deps.pool, {
      id: sessionId,
      userId: user.userId,
      accountId: user.accountId,
      ttlSeconds: API_TOKEN_TTL_MS / 1000,
      ip: req.ip,
      userAgent: req.userAgent,
      kind: 'api',
    });
    const claims: TokenClaims = {
      sub: user.userId,
      acc: user.accountId,
      sid: sessionId,
      sv: user.sessionVersion,
      adm: false,
      dm: false,
      mfa: 'ok',
      knd: 'api',
    };
    // A revocation or regeneration that landed between the check and the session's insert closed the API
    // sessions before this one existed: checked again now that it does, so no token outlives its grant.
    try {
      await verifyApiCredentials(deps, authentication_token, authentication_key);
    } catch (error) {
      await closeSession(deps.pool, sessionId);
      throw error;
    }
    const token = deps.app.jwt.sign(claims, { expiresIn: API_TOKEN_TTL_MS / 1000 });
    return {
      errors: [],
      data: { token, expires_at: new Date(now().getTime() + API_TOKEN_TTL_MS).toISOString() },
    };
  };

  type AddMerchantBody = Parameters<Handler<typeof partnerAddMerchant>>[0]['body'] & Partial<SourceFields>;
  const addMerchant = async (
    req:
      | HandlerRequest<typeof partnerAddMerchant>
      | HandlerRequest<typeof partnerAddMerchantWithAdditionalData>,
  ) => {
    const b = req.body as AddMerchantBody;
    const source: SourceFields = b.submission_source
      ? {
          submission_source: b.submission_source,
          broker_name: b.submission_source === 'broker' ? (b.broker_name ?? null) : null,
        }
      : noSource;
    const merchant = {
      fein: b.fein,
      legal_name: b.legal_name,
      dba: b.dba,
      street1: b.street1,
      street2: b.street2,
      city: b.city,
      state: b.state,
      business_phone: b.business_phone,
      business_startdate: b.business_startdate,
      industry: b.industry,
    };
    const written = await recordMerchant(deps, recordRequest(req), {
      merchant,
      note: { category: b.note_category, note: b.note, ...source },
    });
    req.reply.code(written.created ? 201 : 200);
    const at = now().toISOString();
    const by = await accountName(req.actor.accountId);
    return {
      errors: [] as [],
      data: {
        ...merchant,
        created_at: at,
        added_by: by,
        notes: [{ note_category: b.note_category, note: b.note, created_at: at, added_by: by, ...source }],
      },
      position: written.position,
    };
  };

  type AddNoteBody = Parameters<Handler<typeof partnerAddNote>>[0]['body'] & Partial<SourceFields>;
  const addNote = async (
    req: HandlerRequest<typeof partnerAddNote> | HandlerRequest<typeof partnerAddNoteWithAdditionalData>,
  ) => {
    const b = req.body as AddNoteBody;
    const merchantId = await merchantWithEin(b.fein);
    const source: SourceFields = b.submission_source
      ? {
          submission_source: b.submission_source,
          broker_name: b.submission_source === 'broker' ? (b.broker_name ?? null) : null,
        }
      : noSource;
    const written = await recordNote(deps, recordRequest(req), merchantId, {
      note: { category: b.note_category, note: b.note, ...source },
    });
    req.reply.code(written.created ? 201 : 200);
    return {
      errors: [] as [],
      data: {
        fein: b.fein,
        note_category: b.note_category,
        note: b.note,
        created_at: now().toISOString(),
        added_by: await accountName(req.actor.accountId),
        ...source,
      },
      position: written.position,
    };
  };

  const subscribeHandler: Handler<typeof partnerSubscribe> = async (req) => {
    await subscriptionsEnabled(req.actor);
    const accountId = req.actor.accountId;
    const result = await subscriptions.handle(
      deps,
      accountId,
      { type: 'Subscribe', accountId, feins: [req.body.fein], source: 'api' },
      { now: now(), actor: req.actor },
      metadataFor(req),
    );
    req.reply.code(result.events.length > 0 ? 201 : 200);
    return {
      errors: [],
      data: { fein: req.body.fein, subscribed: true, created_at: now().toISOString() },
      position: result.position,
    };
  };

  const unsubscribeHandler: Handler<typeof partnerDeleteSubscription> = async (req) => {
    await subscriptionsEnabled(req.actor);
    const accountId = req.actor.accountId;
    const result = await subscriptions.handle(
      deps,
      accountId,
      { type: 'Unsubscribe', accountId, feins: [req.params.fein] },
      { now: now(), actor: req.actor },
      metadataFor(req),
    );
    return {
      errors: [],
      data: { fein: req.params.fein, subscribed: false, created_at: null },
      position: result.position,
    };
  };

  return {
    getApiToken: tokenHandler,
    partnerAddMerchant: addMerchant as Handler<typeof partnerAddMerchant>,
    partnerAddMerchantWithAdditionalData: addMerchant as Handler<typeof partnerAddMerchantWithAdditionalData>,
    partnerAddNote: addNote as Handler<typeof partnerAddNote>,
    partnerAddNoteWithAdditionalData: addNote as Handler<typeof partnerAddNoteWithAdditionalData>,
    partnerSubscribe: subscribeHandler,
    partnerDeleteSubscription: unsubscribeHandler,
    partnerCreateScreening: partnerScreeningHandler(deps),
  };
}
