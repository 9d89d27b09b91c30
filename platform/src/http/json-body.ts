import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.ts';
import { JSON_TOO_DEEP_MESSAGE, jsonDeeperThan } from './json-depth.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const bodyRefused = (message: string) =>
  invalid(`body: ${message}`, { fields: [{ field: 'body', message }] });

/**
 * JSON bodies must be valid UTF-8 and no deeper than any route needs. Fastify's own parser decodes bytes
 * leniently (a stray 0xFF becomes U+FFFD and is stored as if the caller had sent it); this one refuses
 * them with a 400 naming the body, refuses a body nested past MAX_JSON_DEPTH before anything parses or
 * walks it, then hands the text to Fastify's default parser, which keeps its refusal of `__proto__` and
 * `constructor.prototype` keys. The size limit is Fastify's `bodyLimit` (413), checked before this runs.
 */
export function installStrictJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(bodyRefused('is not valid UTF-8'));
      return;
    }
    if (jsonDeeperThan(text)) {
      done(bodyRefused(JSON_TOO_DEEP_MESSAGE));
      return;
    }
    parseJson(request, text, done);
  });
}
