import { createHash } from 'node:crypto';
import { DIRECT_UPLOAD_PATH, SUBSCRIPTION_UPLOAD_MAX_BYTES } from '@mrn/contracts';
import { conflict, invalid, notFound, ruleBroken } from '@mrn/platform';
import type { CommandDeps } from '../context.ts';
import { hashSecret } from '../credentials/tokens.ts';

export const DIRECT_UPLOAD_TEXTS = {
  notCsv: 'The file must be a CSV (text/csv).',
  unknown: 'This upload address is not valid or has expired.',
  used: 'This upload address has already been used.',
  size: 'The file is not the size that was declared.',
  checksum: 'The file does not match its declared MD5 checksum.',
  tooLarge: 'The file is larger than 10 MB.',
} as const;

/**
 * PUT /api/direct_uploads/:token: the bytes of a presigned upload, once, before it expires, checked
 * against the declared content type, size and MD5. Outside the route table: the unguessable address
 * is the permission (as a storage service's presigned URL), and the body is bytes, not JSON.
 */
export function registerDirectUploads(deps: CommandDeps): void {
  deps.app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: SUBSCRIPTION_UPLOAD_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );
    scope.put<{ Params: { token: string } }>(
      DIRECT_UPLOAD_PATH,
      { bodyLimit: SUBSCRIPTION_UPLOAD_MAX_BYTES },
      async (request, reply) => {
        const type = String(request.headers['content-type'] ?? '')
          .split(';')[0]!
          .trim()
          .toLowerCase();
        if (type !== 'text/csv')
          throw invalid(DIRECT_UPLOAD_TEXTS.notCsv, {
            fields: [{ field: 'content_type', message: 'must be text/csv' }],
          });
        const { rows } = await deps.pool.query<{
          id: string;
          byte_size: number;
          checksum: string;
          expires_at: Date;
          uploaded_at: Date | null;
        }>(
          'select id, byte_size, checksum, expires_at, uploaded_at from direct_uploads where token_hash = $1',
          [hashSecret(request.params.token)],
        );
        const upload = rows[0];
        if (!upload || upload.expires_at.getTime() < deps.clock.now().getTime())
          throw notFound(DIRECT_UPLOAD_TEXTS.unknown);
        if (upload.uploaded_at) throw conflict(DIRECT_UPLOAD_TEXTS.used);
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (body.length !== upload.byte_size) throw ruleBroken(DIRECT_UPLOAD_TEXTS.size);
        if (createHash('md5').update(body).digest('base64') !== upload.checksum)
          throw ruleBroken(DIRECT_UPLOAD_TEXTS.checksum);
        const stored = await deps.pool.query(
          'update direct_uploads set uploaded_at = now(), data = $2 where id = $1 and uploaded_at is null',
          [upload.id, body],
        );
        if (stored.rowCount !== 1) throw conflict(DIRECT_UPLOAD_TEXTS.used);
        return reply.code(204).send();
      },
    );
  });
}
