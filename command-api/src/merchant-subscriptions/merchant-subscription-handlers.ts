import { createHash, randomBytes } from 'node:crypto';
import {
  type addMerchantSubscription,
  type createPresignedUrl,
  type createSubscriptionImport,
  DIRECT_UPLOAD_PATH,
  type deleteAllMerchantSubscriptions,
  type deleteSelectedMerchantSubscriptions,
  type downloadSubscriptionImportResults,
  SUBSCRIPTION_TEXTS,
  type toggleMerchantSubscription,
} from '@mrn/contracts';
import {
  type Actor,
  conflict,
  forbidden,
  gone,
  type Handler,
  merchantSubscriptionPage,
  notFound,
  type Position,
  ruleBroken,
} from '@mrn/platform';
import { loadAccount } from '../accounts/account-service.ts';
import { merchants, subscriptions } from '../aggregates.ts';
import { runInBackground } from '../background.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { runSubscriptionImport } from '../imports/subscription-import.ts';
import { MERCHANT_TEXTS } from '../merchants/merchant.ts';
import { type SubscriptionsCommand, subscriptionId } from './subscriptions.ts';

export const UPLOAD_TEXTS = {
  fileMissing: 'The uploaded file was not found. Please upload it again.',
  notUploaded: 'The file has not been uploaded yet.',
  alreadyImported: 'This file has already been imported.',
  importNotFound: 'Import not found.',
} as const;

/** How long a presigned upload address may be used. */
export const DIRECT_UPLOAD_TTL_MS = 60 * 60 * 1000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The account the caller may manage subscriptions of: its own admins and platform admins; another
 * funder's admin is told it does not exist (as for a made-up id); only PRO accounts with subscriptions
 * enabled have them.
 */
export async function subscriptionAccount(deps: CommandDeps, accountId: string, actor: Actor): Promise<void> {
  if (!actor.isDmAdmin && actor.accountId !== accountId) throw notFound('Funder not found.');
  if (!actor.isDmAdmin && !actor.isAdmin) throw forbidden();
  const { state } = await loadAccount(deps, accountId);
  if (state.status === 'none') throw notFound('Funder not found.');
  if (state.status !== 'open' || state.planLevel !== 'PRO' || !state.merchantSubscriptionEnabled)
    throw forbidden(SUBSCRIPTION_TEXTS.notEnabled);
}

export const paginationOf = (page: number, perPage: number, total: number) => ({
  current_page: page,
  per_page: perPage,
  total_pages: Math.max(1, Math.ceil(total / perPage)),
  total_count: total,
});

/** Until the subscriptions read model has applied `position` (or the consistency timeout passed). */
async function caughtUp(deps: CommandDeps, position: Position | undefined): Promise<void> {
  if (!position) return;
  await deps.readModels.waitFor(position, ['merchant_subscriptions'], deps.config.CONSISTENCY_TIMEOUT_MS);
}

export function merchantSubscriptionHandlers(deps: CommandDeps) {
  const ctxOf = (req: { actor: Actor }) => ({ now: deps.clock.now(), actor: req.actor });

  const addHandler: Handler<typeof addMerchantSubscription> = async (req) => {
    const accountId = req.params.id;
    await subscriptionAccount(deps, accountId, req.actor);
    const fein = req.body.merchant_subscription.fein;
    const result = await subscriptions.handle(
      deps,
      accountId,
      { type: 'Subscribe', accountId, feins: [fein], source: 'web' },
      ctxOf(req),
      metadataFor(req),
    );
    // Subscribing again writes nothing: 200 and "already watched" rather than 201 "added".
    const alreadyWatched = result.events.length === 0;
    req.reply.code(alreadyWatched ? 200 : 201);
    const id = subscriptionId(accountId, fein);
    return {
      data: { id, resource_id: id, fein, already_watched: alreadyWatched },
      message: alreadyWatched
        ? SUBSCRIPTION_TEXTS.alreadyWatched(fein)
        : SUBSCRIPTION_TEXTS.added(deps.config.PRODUCT_NAME),
      ...(result.position ? { position: result.position } : {}),
    };
  };

  // GET /api/merchants/:id/toggle_subscription (core spec §7): a GET that changes state, as the spec has
  // it. The caller's own account watches the live merchant's EIN, or stops; the choice is made on the
  // subscriptions state the command is decided on, so a lost race decides again on the newer state.
  const toggleHandler: Handler<typeof toggleMerchantSubscription> = async (req) => {
    const accountId = req.actor.accountId;
    await subscriptionAccount(deps, accountId, req.actor);
    const { state: merchant } = await merchants.load(deps.store, req.params.id);
    if (merchant.status === 'none') throw notFound(MERCHANT_TEXTS.notFound);
    if (merchant.status === 'archived') throw gone(MERCHANT_TEXTS.archived);
    const fein = merchant.fein;
    let watched = false;
    const result = await subscriptions.handle(
      deps,
      accountId,
      (state): SubscriptionsCommand => {
        watched = !state.feins.has(fein);
        return watched
          ? { type: 'Subscribe', accountId, feins: [fein], source: 'web' }
          : { type: 'Unsubscribe', accountId, feins: [fein] };
      },
      ctxOf(req),
      metadataFor(req),
    );
    return {
      data: { resource_id: req.params.id, fein, has_merchant_subscription: watched },
      message: watched ? SUBSCRIPTION_TEXTS.added(deps.config.PRODUCT_NAME) : SUBSCRIPTION_TEXTS.deleted,
      ...(result.position ? { position: result.position } : {}),
    };
  };

  const afterDeletion = async (
    accountId: string,
    position: Position | undefined,
    perPage: number,
    search: string | undefined,
  ) => {
    await caughtUp(deps, position);
    const { data, total } = await merchantSubscriptionPage(deps.pool, accountId, {
      page: 1,
      perPage,
      search,
    });
    return {
      data,
      pagination: paginationOf(1, perPage, total),
      message: SUBSCRIPTION_TEXTS.deleted,
      ...(position ? { position } : {}),
    };
  };

  const deleteSelectedHandler: Handler<typeof deleteSelectedMerchantSubscriptions> = async (req) => {
    const accountId = req.params.account_id;
    await subscriptionAccount(deps, accountId, req.actor);
    const ids = new Set(req.body.merchant_subscription_ids);
    // Ids are derived from this account and the EIN: another account's ids match nothing here.
    const result = await subscriptions.handle(
      deps,
      accountId,
      (state) => ({
        type: 'Unsubscribe' as const,
        accountId,
        feins: [...state.feins].filter((f) => ids.has(subscriptionId(accountId, f))),
      }),
      ctxOf(req),
      metadataFor(req),
    );
    return afterDeletion(accountId, result.position, req.body.per_page, req.body.search);
  };

  const deleteAllHandler: Handler<typeof deleteAllMerchantSubscriptions> = async (req) => {
    const accountId = req.params.account_id;
    await subscriptionAccount(deps, accountId, req.actor);
    const result = await subscriptions.handle(
      deps,
      accountId,
      (state) => ({ type: 'Unsubscribe' as const, accountId, feins: [...state.feins] }),
      ctxOf(req),
      metadataFor(req),
    );
    return afterDeletion(accountId, result.position, req.body.per_page, req.body.search);
  };

  const presignHandler: Handler<typeof createPresignedUrl> = async (req) => {
    // The uploader's own account must have subscriptions (platform admins upload for any account).
    if (!req.actor.isDmAdmin) await subscriptionAccount(deps, req.actor.accountId, req.actor);
    const token = randomBytes(32).toString('base64url');
    const signedId = randomBytes(32).toString('base64url');
    const { file } = req.body;
    await deps.pool.query(
      `insert into direct_uploads (id, account_id, user_id, token_hash, signed_hash, filename, byte_size,
                                   checksum, content_type, expires_at)
       values (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        req.actor.accountId,
        req.actor.userId,
        hashToken(token),
        hashToken(signedId),
        file.filename,
        file.byte_size,
        file.checksum,
        file.content_type,
        new Date(deps.clock.now().getTime() + DIRECT_UPLOAD_TTL_MS),
      ],
    );
    return {
      signed_id: signedId,
      direct_upload: {
        url: DIRECT_UPLOAD_PATH.replace(':token', token),
        headers: { 'Content-Type': file.content_type, 'Content-MD5': file.checksum },
      },
    };
  };

  const createImportHandler: Handler<typeof createSubscriptionImport> = async (req) => {
    const accountId = req.params.id;
    await subscriptionAccount(deps, accountId, req.actor);
    const { rows } = await deps.pool.query<{
      id: string;
      filename: string;
      byte_size: number;
      uploaded_at: Date | null;
      attached_at: Date | null;
    }>(
      `select id, filename, byte_size, uploaded_at, attached_at from direct_uploads
        where signed_hash = $1 and user_id = $2`,
      [hashToken(req.body.file), req.actor.userId],
    );
    const upload = rows[0];
    if (!upload) throw notFound(UPLOAD_TEXTS.fileMissing);
    if (upload.attached_at) throw conflict(UPLOAD_TEXTS.alreadyImported);
    if (!upload.uploaded_at) throw ruleBroken(UPLOAD_TEXTS.notUploaded);
    // The upload's id is the import's: queuing it twice is refused by the decider, whoever races.
    const importId = upload.id;
    const result = await subscriptions.handle(
      deps,
      accountId,
      (state) => {
        if (state.imports.has(importId)) throw conflict(UPLOAD_TEXTS.alreadyImported);
        return {
          type: 'QueueImport' as const,
          accountId,
          importId,
          fileName: req.body.file_name,
          fileSize: upload.byte_size,
        };
      },
      ctxOf(req),
      metadataFor(req),
    );
    await deps.pool.query('update direct_uploads set attached_at = now() where id = $1', [importId]);
    runInBackground(deps.logger, 'merchant subscription import', () =>
      runSubscriptionImport(deps, accountId, importId, metadataFor(req, { source: 'web' })),
    );
    req.reply.code(201);
    return { data: { id: importId, status: 'queued' as const }, position: result.position };
  };

  const downloadResultsHandler: Handler<typeof downloadSubscriptionImportResults> = async (req) => {
    await subscriptionAccount(deps, req.params.id, req.actor);
    const { rows } = await deps.pool.query<{ csv: string }>(
      'select csv from subscription_import_results where import_id = $1 and account_id = $2',
      [req.params.import_id, req.params.id],
    );
    if (!rows[0]) throw notFound(UPLOAD_TEXTS.importNotFound);
    req.reply.header('content-type', 'text/csv; charset=utf-8');
    req.reply.header(
      'content-disposition',
      `attachment; filename="import-${req.params.import_id}-results.csv"`,
    );
    return rows[0].csv;
  };

  return {
    addMerchantSubscription: addHandler,
    toggleMerchantSubscription: toggleHandler,
    deleteSelectedMerchantSubscriptions: deleteSelectedHandler,
    deleteAllMerchantSubscriptions: deleteAllHandler,
    createPresignedUrl: presignHandler,
    createSubscriptionImport: createImportHandler,
    downloadSubscriptionImportResults: downloadResultsHandler,
  };
}
