import { loadAccount, verifyApiCredentials } from '@mrn/command-api';
import { API_TEXTS, type getApiToken, SANDBOX_PREFIX } from '@mrn/contracts';
import { type EventStore, type Handler, type Pool, unauthorized } from '@mrn/platform';
import type { ProjectionRunner } from '@mrn/projections';
import { provisionInSandbox } from './provision.ts';

/** How long a token request waits for the sandbox's read models to hold a just-provisioned user. */
const PROVISION_WAIT_MS = 10_000;

/** Both credentials carry the prefix: what sends a token request to the sandbox. */
export function areSandboxCredentials(auth: unknown): boolean {
  if (!auth || typeof auth !== 'object') return false;
  const { authentication_token: token, authentication_key: key } = auth as Record<string, unknown>;
  return (
    typeof token === 'string' &&
    typeof key === 'string' &&
    token.startsWith(SANDBOX_PREFIX) &&
    key.startsWith(SANDBOX_PREFIX)
  );
}

/**
 * POST /api/v2/token in the sandbox. The credentials are production's with `test_` before each: they
 * are checked against production (the same check and answers as a production token request), the
 * funder and user are mirrored into the sandbox as they are now (plan, API access, subscriptions),
 * and the sandbox's own token handler issues a sandbox token over the sandbox's records.
 */
export function sandboxTokenHandler(deps: {
  production: { pool: Pool; store: EventStore };
  sandbox: { store: EventStore; projections: ProjectionRunner };
  issue: Handler<typeof getApiToken>;
}): Handler<typeof getApiToken> {
  return async (req) => {
    // Production credentials without the prefix open nothing here: the sandbox is only for `test_` ones.
    if (!areSandboxCredentials(req.body.auth)) throw unauthorized(API_TEXTS.badCredentials);
    const auth = {
      authentication_token: req.body.auth.authentication_token.slice(SANDBOX_PREFIX.length),
      authentication_key: req.body.auth.authentication_key.slice(SANDBOX_PREFIX.length),
    };
    const user = await verifyApiCredentials(
      deps.production,
      auth.authentication_token,
      auth.authentication_key,
    );
    const { state: account } = await loadAccount(deps.production, user.accountId);
    if (account.status !== 'open') throw unauthorized(API_TEXTS.badCredentials);
    const position = await provisionInSandbox(deps.sandbox.store, account, user);
    if (position) await deps.sandbox.projections.waitFor(position, ['users', 'accounts'], PROVISION_WAIT_MS);
    return deps.issue({ ...req, body: { auth } });
  };
}
