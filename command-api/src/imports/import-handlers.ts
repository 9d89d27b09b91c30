import { randomBytes } from 'node:crypto';
import {
  type createPresignedUrl,
  type createSubscriptionImport,
  DIRECT_UPLOAD_PATH,
  type downloadSubscriptionImportResults,
} from '@mrn/contracts';
import { type Actor, conflict, type Handler, notFound, ruleBroken } from '@mrn/platform';
import { runInBackground } from '../background.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { hashSecret } from '../credentials/tokens.ts';
import { subscriptions } from '../merchant-subscriptions/aggregate.ts';
import { subscriptionAccount } from '../merchant-subscriptions/merchant-subscription-handlers.ts';
import { runSubscriptionImport } from './subscription-import.ts';

// A CSV of EINs imported into an account's merchant subscriptions (accounts spec §7): a presigned
// address, the direct upload (direct-uploads.ts), the import queued and run, its results file.

export const UPLOAD_TEXTS = {
  fileMissing: 'The uploaded file was not found. Please upload it again.',
  notUploaded: 'The file has not been uploaded yet.',
  alreadyImported: 'This file has already been imported.',
  importNotFound: 'Import not found.',
} as const;

/** How long a presigned upload address may be used. */
export const DIRECT_UPLOAD_TTL_MS = 60 * 60 * 1000;

export function importHandlers(deps: CommandDeps) {
  const ctxOf = (req: { actor: Actor }) => ({
    now: deps.clock.now(),
    actor: req.actor,
  });

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
        hashSecret(token),
        hashSecret(signedId),
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
      [hashSecret(req.body.file), req.actor.userId],
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
    createPresignedUrl: presignHandler,
    createSubscriptionImport: createImportHandler,
    downloadSubscriptionImportResults: downloadResultsHandler,
  };
}
