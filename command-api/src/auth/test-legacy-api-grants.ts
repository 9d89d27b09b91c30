import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@mrn/contracts';
import type { EventStore } from '@mrn/platform';
import { hashSecret, newSecret } from '../credentials/tokens.ts';

export interface Credentials {
  userId: string;
  token: string;
  key: string;
}

/** The members `seedLegacyGrants` writes, each with the credentials last shown to them. */
export interface LegacyGrants {
  /** Granted; the token was never reserved. */
  granted: Credentials;
  /** Granted, then the key regenerated, both before reservations: same token, `oldKey` replaced. */
  regenerated: Credentials & { oldKey: string };
  /** Granted, then revoked: the token ended. */
  revoked: Credentials;
  /** Granted and revoked before reservations (`oldToken` ended), granted again since (reserved). */
  regranted: Credentials & { oldToken: string };
}

/**
 * A log as a database from before API tokens were reserved holds it: an open funder with API access and
 * members granted access by events on their own streams only, with no `api-token-{sha256}` stream.
 */
export async function seedLegacyGrants(store: EventStore): Promise<LegacyGrants> {
  const accountId = randomUUID();
  const append = (streamId: string, ...events: DomainEvent[]) =>
    store.appendToStream(
      streamId,
      events.map((e) => ({ id: randomUUID(), ...e, metadata: { source: 'web' as const } })),
      { expectedRevision: 'any' },
    );
  await append(
    streams.account(accountId),
    {
      type: 'AccountOpened',
      data: {
        accountId,
        name: 'Legacy Funding',
        website: null,
        primaryContactEmail: 'ops@legacy.example',
        planLevel: 'PRO',
        membershipStatus: 'active',
        isPlatform: false,
      },
    },
    { type: 'AccountApiAccessGranted', data: { accountId } },
  );
  const member = async (name: string): Promise<string> => {
    const userId = randomUUID();
    await append(streams.user(userId), {
      type: 'UserRegistered',
      data: {
        userId,
        accountId,
        email: `${name}@legacy.example`,
        firstName: name,
        lastName: 'Legacy',
        isAdmin: false,
        isDmAdmin: false,
        passwordHash: 'h',
        agreedToTermsAt: null,
      },
    });
    return userId;
  };
  const newToken = () => `mrn_${newSecret(12)}`;
  const grant = (userId: string, token: string, key: string): DomainEvent => ({
    type: 'UserApiAccessGranted',
    data: { userId, authenticationToken: token, keyHash: hashSecret(key) },
  });

  const granted = { userId: await member('ann'), token: newToken(), key: newSecret(24) };
  await append(streams.user(granted.userId), grant(granted.userId, granted.token, granted.key));

  const regenerated = {
    userId: await member('ben'),
    token: newToken(),
    key: newSecret(24),
    oldKey: newSecret(24),
  };
  await append(
    streams.user(regenerated.userId),
    grant(regenerated.userId, regenerated.token, regenerated.oldKey),
    {
      type: 'UserApiKeyRegenerated',
      data: { userId: regenerated.userId, keyHash: hashSecret(regenerated.key) },
    },
  );

  const revoked = { userId: await member('cat'), token: newToken(), key: newSecret(24) };
  await append(streams.user(revoked.userId), grant(revoked.userId, revoked.token, revoked.key), {
    type: 'UserApiAccessRevoked',
    data: { userId: revoked.userId },
  });

  const regranted = {
    userId: await member('dan'),
    token: newToken(),
    key: newSecret(24),
    oldToken: newToken(),
  };
  await append(streams.user(regranted.userId), grant(regranted.userId, regranted.oldToken, newSecret(24)), {
    type: 'UserApiAccessRevoked',
    data: { userId: regranted.userId },
  });
  // Granted again once grants reserved their token: in the same append, as the grant handler does.
  await store.appendMany([
    {
      streamId: streams.user(regranted.userId),
      expectedRevision: 'any',
      events: [{ id: randomUUID(), ...grant(regranted.userId, regranted.token, regranted.key) }],
    },
    {
      streamId: streams.apiToken(hashSecret(regranted.token)),
      expectedRevision: 'no_stream',
      events: [{ id: randomUUID(), type: 'ApiTokenAssigned', data: { userId: regranted.userId } }],
    },
  ]);
  return { granted, regenerated, revoked, regranted };
}
