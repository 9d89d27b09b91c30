import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON bodies must be valid UTF-8. Fastify's own parser decodes bytes leniently (a stray 0xFF becomes
 * U+FFFD and is stored as if the caller had sent it); this one refuses them with a 400 naming the body,
 * then hands the text to Fastify's default parser, which keeps its refusal of `__proto__` and
 * `constructor.prototype` keys.
 */
export function installStrictJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(
        invalid('body: is not valid UTF-8', { fields: [{ field: 'body', message: 'is not valid UTF-8' }] }),
      );
      return;
    }
    parseJson(request, text, done);
  });
}
