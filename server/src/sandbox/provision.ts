import {
  type AccountState,
  type ActiveUser,
  accounts,
  apiTokens,
  hashSecret,
  type OpenAccountState,
  type UserState,
  users,
} from '@mrn/command-api';
import type { DomainEvent } from '@mrn/contracts';
import {
  type EventMetadata,
  type EventStore,
  newId,
  type Position,
  type StreamAppend,
  WrongExpectedRevisionError,
} from '@mrn/platform';

/** Sandbox users cannot sign in (the sandbox has no dashboard): a hash no password matches. */
const NO_PASSWORD = 'sandbox:no-password';
const METADATA: EventMetadata = { source: 'system' };

/**
 * Makes the sandbox hold this production funder and user as they are now: same ids, name, plan,
 * API access, merchant-subscription switch, and the same API token and key hash, so the stripped
 * `test_` credentials pass the sandbox's own credential check (the token reserved to the user there
 * too). Only what differs is appended (a repeated token request appends nothing), and the account's,
 * user's and token's streams change in one atomic append at the revisions read, decided again if
 * another request provisioned first.
 */
export async function provisionInSandbox(
  sandbox: EventStore,
  account: OpenAccountState,
  user: ActiveUser,
): Promise<Position | undefined> {
  // The sandbox's token check finds the user through the token's reservation, as production's does.
  const tokenId = user.api ? hashSecret(user.api.token) : null;
  for (let attempt = 0; ; attempt++) {
    const [a, u, t] = await Promise.all([
      accounts.load(sandbox, account.accountId),
      users.load(sandbox, user.userId),
      tokenId ? apiTokens.load(sandbox, tokenId) : null,
    ]);
    const appends: StreamAppend[] = [
      { streamId: accounts.streamId(account.accountId), expectedRevision: a.revision, events: [] },
      { streamId: users.streamId(user.userId), expectedRevision: u.revision, events: [] },
    ];
    appends[0]!.events = accountChanges(a.state, account).map(toEvent);
    appends[1]!.events = userChanges(u.state, user).map(toEvent);
    if (tokenId && t) {
      const reserve = { type: 'AssignApiToken', userId: user.userId } as const;
      appends.push({
        streamId: apiTokens.streamId(tokenId),
        expectedRevision: t.revision,
        events: apiTokens.decider.decide(reserve, t.state, { now: new Date() }).map(toEvent),
      });
    }
    const changed = appends.filter((s) => s.events.length > 0);
    if (changed.length === 0) return undefined;
    try {
      const results = await sandbox.appendMany(changed);
      return results.reduce<Position | undefined>(
        (max, r) => (!max || r.position > max ? r.position : max),
        undefined,
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= 5) throw error;
    }
  }
}

const toEvent = (c: DomainEvent) => ({ id: newId(), type: c.type, data: c.data, metadata: METADATA });

function accountChanges(mirror: AccountState, prod: OpenAccountState): DomainEvent[] {
  const { accountId } = prod;
  const changes: DomainEvent[] = [];
  let current = mirror;
  if (current.status === 'none') {
    const opened: DomainEvent = {
      type: 'AccountOpened',
      data: {
        accountId,
        name: prod.name,
        website: prod.website,
        primaryContactEmail: prod.primaryContactEmail,
        planLevel: prod.planLevel,
        membershipStatus: prod.membershipStatus,
        isPlatform: prod.isPlatform,
      },
    };
    changes.push(opened);
    current = accounts.decider.evolve(current, opened as never);
  }
  if (current.status === 'none') return changes;
  const details = {
    name: prod.name,
    website: prod.website,
    primaryContactEmail: prod.primaryContactEmail,
    merchantSubscriptionEnabled: prod.merchantSubscriptionEnabled,
    merchantSubscriptionNotificationEmail: prod.merchantSubscriptionNotificationEmail,
    merchantSubscriptionNotificationWebhook: prod.merchantSubscriptionNotificationWebhook,
    watchSearchedMerchants: prod.watchSearchedMerchants,
    watchSearchedMonths: prod.watchSearchedMonths,
  };
  const was = current;
  if ((Object.keys(details) as (keyof typeof details)[]).some((k) => was[k] !== details[k])) {
    changes.push({ type: 'AccountUpdated', data: { accountId, ...details } });
  }
  if (!current.canAccessApi) changes.push({ type: 'AccountApiAccessGranted', data: { accountId } });
  if (current.planLevel !== prod.planLevel) {
    changes.push({ type: 'AccountPlanChanged', data: { accountId, planLevel: prod.planLevel } });
  }
  return changes;
}

function userChanges(mirror: UserState, prod: ActiveUser): DomainEvent[] {
  const { userId } = prod;
  const changes: DomainEvent[] = [];
  if (mirror.status === 'none') {
    changes.push({
      type: 'UserRegistered',
      data: {
        userId,
        accountId: prod.accountId,
        email: prod.email,
        firstName: prod.firstName,
        lastName: prod.lastName,
        isAdmin: prod.isAdmin,
        isDmAdmin: prod.isDmAdmin,
        passwordHash: NO_PASSWORD,
        agreedToTermsAt: prod.agreedToTermsAt,
      },
    });
  } else {
    if (mirror.status === 'archived') changes.push({ type: 'UserRestored', data: { userId } });
    if (
      mirror.email !== prod.email ||
      mirror.firstName !== prod.firstName ||
      mirror.lastName !== prod.lastName
    ) {
      const { email, firstName, lastName } = prod;
      changes.push({ type: 'UserUpdated', data: { userId, email, firstName, lastName } });
    }
    if (mirror.isAdmin !== prod.isAdmin) {
      changes.push({ type: 'UserAdminChanged', data: { userId, isAdmin: prod.isAdmin } });
    }
  }
  const api = mirror.status === 'none' ? null : mirror.api;
  if (prod.api && (api?.token !== prod.api.token || api.keyHash !== prod.api.keyHash)) {
    changes.push({
      type: 'UserApiAccessGranted',
      data: { userId, authenticationToken: prod.api.token, keyHash: prod.api.keyHash },
    });
  }
  return changes;
}
