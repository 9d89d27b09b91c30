import { randomBytes } from 'node:crypto';
import { loadAccount, openAccount, registerUser } from '@mrn/command-api';
import type { EventStore, Logger } from '@mrn/platform';

/** The product staff's own account: fixed, so that every process agrees on it. */
export const PLATFORM_ACCOUNT_ID = '00000000-0000-4000-8000-000000000001';
export const FIRST_ADMIN_ID = '00000000-0000-4000-8000-000000000002';
export const DEFAULT_ADMIN_EMAIL = 'admin@merchantrisk.local';

/**
 * On first run: opens the platform account and creates the first platform administrator with
 * ADMIN_EMAIL/ADMIN_PASSWORD, or a generated password printed once. Later runs change nothing.
 */
export async function ensurePlatformAdmin(
  deps: { store: EventStore; logger: Logger },
  opts: { productName: string; email?: string; password?: string },
): Promise<{ created: boolean; email: string; password?: string }> {
  const { state } = await loadAccount(deps, PLATFORM_ACCOUNT_ID);
  const email = (opts.email ?? DEFAULT_ADMIN_EMAIL).toLowerCase();
  if (state.status === 'open') return { created: false, email };
  const ctx = { now: new Date() };
  const metadata = { source: 'system' as const };
  await openAccount(
    deps,
    {
      accountId: PLATFORM_ACCOUNT_ID,
      name: `${opts.productName} Staff`,
      website: null,
      primaryContactEmail: email,
      planLevel: 'PRO',
      membershipStatus: 'active',
      isPlatform: true,
    },
    ctx,
    metadata,
  );
  const password = opts.password ?? randomBytes(12).toString('base64url');
  await registerUser(
    deps,
    {
      userId: FIRST_ADMIN_ID,
      accountId: PLATFORM_ACCOUNT_ID,
      email,
      firstName: 'Platform',
      lastName: 'Administrator',
      isAdmin: true,
      isDmAdmin: true,
      password,
      agreedToTermsAt: ctx.now.toISOString(),
    },
    ctx,
    metadata,
  );
  return { created: true, email, password };
}
