import type { FastifyInstance } from 'fastify';

/**
 * Browser features no page of ours uses are switched off, so a script that ever got in could not turn on
 * the camera or read the location; payment stays for our origin and Stripe's card frame.
 */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), usb=(), serial=(), bluetooth=(), payment=(self "https://js.stripe.com")';

/**
 * Answers carry credentials (a new API key, the webhook signing secret on the account view), other
 * funders' risk data and personal data: no browser, proxy or shared cache may keep one. An answer that
 * says how it may be cached (the web app's files, the public OpenAPI document) keeps what it says.
 */
export function installResponseHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    return payload;
  });
}
