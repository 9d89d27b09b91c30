import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@mrn/contracts';
import { PostgresEventStore, platformMigrations } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { expectRebuildEqualsIncremental } from '../testing/replay-equality.ts';
import { accountsProjector, disputesProjector, usersProjector } from './index.ts';

let db: TestDatabase;
let store: PostgresEventStore;
const accountId = randomUUID();
const userId = randomUUID();
/** A funder through billing: paid, failed, lapsed unpaid, paid again; API access granted then revoked. */
const billedId = randomUUID();
const append = (stream: string, ...events: DomainEvent[]) =>
  store.appendToStream(
    stream,
    events.map((e) => ({ id: randomUUID(), ...e })),
    { expectedRevision: 'any' },
  );

beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
  store = new PostgresEventStore(db.pool);
  await append(
    streams.account(accountId),
    {
      type: 'AccountOpened',
      data: {
        accountId,
        name: 'Granite',
        website: null,
        primaryContactEmail: 'ops@granite.example',
        planLevel: 'PRO',
        membershipStatus: 'none',
        isPlatform: false,
      },
    },
    {
      type: 'AccountUpdated',
      data: {
        accountId,
        name: 'Granite Capital',
        website: 'granite.example',
        primaryContactEmail: 'ops@granite.example',
        merchantSubscriptionEnabled: true,
        merchantSubscriptionNotificationEmail: 'alerts@granite.example',
        merchantSubscriptionNotificationWebhook: null,
      },
    },
    { type: 'AccountTrialStarted', data: { accountId } },
    { type: 'AccountApiAccessGranted', data: { accountId } },
    { type: 'AccountMfaRequiredChanged', data: { accountId, mfaRequired: true } },
  );
  await append(
    streams.account(billedId),
    {
      type: 'AccountOpened',
      data: {
        accountId: billedId,
        name: 'Basalt',
        website: null,
        primaryContactEmail: 'ops@basalt.example',
        planLevel: 'BASIC',
        membershipStatus: 'none',
        isPlatform: false,
      },
    },
    { type: 'AccountApiAccessGranted', data: { accountId: billedId } },
    { type: 'AccountApiAccessRevoked', data: { accountId: billedId } },
    {
      type: 'AccountMembershipStarted',
      data: {
        accountId: billedId,
        planLevel: 'BASIC',
        stripeCustomerId: 'cus_1',
        stripeSubscriptionId: 'sub_1',
        currentPeriodEnd: '2026-12-24T12:00:00.000Z',
      },
    },
    {
      type: 'AccountRenewalFailed',
      data: {
        accountId: billedId,
        invoiceId: 'in_2',
        nextPaymentAttempt: null,
        invoiceCreatedAt: '2026-12-24T12:00:00.000Z',
      },
    },
    {
      type: 'AccountMembershipCanceled',
      data: {
        accountId: billedId,
        reason: 'unpaid',
        afterFailedPayment: true,
        providerEndedAt: '2027-01-14T12:00:00.000Z',
      },
    },
  );
  await append(
    streams.user(userId),
    {
      type: 'UserRegistered',
      data: {
        userId,
        accountId,
        email: 'ann@granite.example',
        firstName: 'Ann',
        lastName: 'Lee',
        isAdmin: false,
        isDmAdmin: false,
        passwordHash: 'h',
        agreedToTermsAt: null,
      },
    },
    {
      type: 'UserUpdated',
      data: { userId, firstName: 'Anne', lastName: 'Lee', email: 'anne@granite.example' },
    },
    { type: 'UserAdminChanged', data: { userId, isAdmin: true } },
    { type: 'UserMfaEnabled', data: { userId, secret: 'S' } },
    {
      type: 'UserDeviceRemembered',
      data: { userId, tokenHash: 'x', ip: '10.0.0.1', device: 'Firefox', expiresAt: '2099-01-01T00:00:00Z' },
    },
    { type: 'UserApiAccessGranted', data: { userId, authenticationToken: 'mrn_abc', keyHash: 'k' } },
    { type: 'UserAgreedToTerms', data: { userId, agreedAt: '2026-11-20T10:00:00Z' } },
    { type: 'UserArchived', data: { userId } },
  );
  for (let i = 0; i < 3; i++) {
    const merchantId = randomUUID();
    await append(
      streams.merchant(merchantId),
      {
        type: 'MerchantAdded',
        data: {
          merchantId,
          fein: `90000000${i}`,
          legalName: `M${i}`,
          dba: null,
          street1: null,
          street2: null,
          city: 'X',
          state: 'FL',
          businessPhone: null,
          businessStartdate: null,
          industry: null,
          accountId,
          userId,
        },
      },
      {
        type: 'NoteAdded',
        data: {
          merchantId,
          noteId: randomUUID(),
          category: 'Other',
          note: 'n',
          submissionSource: null,
          brokerName: null,
          accountId,
          userId,
          proxiedCreator: null,
        },
      },
    );
  }
  await append(streams.dispute(randomUUID()), {
    type: 'DisputeSubmitted',
    data: {
      disputeId: randomUUID(),
      firstName: 'Sam',
      lastName: 'Owner',
      email: 's@x.example',
      fein: '451234567',
      legalName: 'Sunrise',
      dba: null,
      city: 'Tampa',
      state: 'FL',
      reason: 'settled',
    },
  });
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

describe('member read models', () => {
  it('accounts: settings, trial, API, MFA and contribution counters; a rebuild yields the same rows', async () => {
    await expectRebuildEqualsIncremental({ pool: db.pool, store }, accountsProjector);
    const { rows } = await db.pool.query('select * from read.accounts where id = $1', [accountId]);
    expect(rows[0]).toMatchObject({
      name: 'Granite Capital',
      membership_status: 'trialing',
      can_access_api: true,
      mfa_required: true,
      merchant_subscription_enabled: true,
      merchants_added: 3,
      notes_added: 3,
    });
    expect(rows[0].last_merchant_added_at).toBeInstanceOf(Date);
  });

  it('accounts: billed, why and when a membership ended, API granted and revoked dates; a rebuild yields the same rows', async () => {
    const row = async () =>
      (await db.pool.query('select * from read.accounts where id = $1', [billedId])).rows[0];
    // Fed from an empty table each time (the test above left its rows).
    const replayed = async () => {
      await db.pool.query('delete from read.accounts');
      await expectRebuildEqualsIncremental({ pool: db.pool, store }, accountsProjector);
    };
    await replayed();
    expect(await row()).toMatchObject({
      membership_status: 'canceled',
      billed: false,
      payment_failed: false,
      membership_ended_reason: 'unpaid',
      membership_ended_at: new Date('2027-01-14T12:00:00.000Z'),
      can_access_api: false,
    });
    const lapsed = await row();
    expect(lapsed.api_granted_at).toBeInstanceOf(Date);
    expect(lapsed.api_revoked_at.getTime()).toBeGreaterThanOrEqual(lapsed.api_granted_at.getTime());
    // Paid again: back, billed, nothing ended.
    await append(streams.account(billedId), {
      type: 'AccountMembershipReinstated',
      data: { accountId: billedId, planLevel: 'BASIC', currentPeriodEnd: '2027-01-24T12:00:00.000Z' },
    });
    await replayed();
    expect(await row()).toMatchObject({
      membership_status: 'active',
      billed: true,
      membership_ended_reason: null,
      membership_ended_at: null,
      current_period_end: new Date('2027-01-24T12:00:00.000Z'),
    });
    // The trial's account: no billing, its API granted once and never revoked.
    const trial = (await db.pool.query('select * from read.accounts where id = $1', [accountId])).rows[0];
    expect(trial).toMatchObject({ billed: false, api_revoked_at: null });
    expect(trial.api_granted_at).toBeInstanceOf(Date);
  });

  it('users: profile, admin, MFA, device, API, terms, archive; a rebuild yields the same rows', async () => {
    await expectRebuildEqualsIncremental({ pool: db.pool, store }, usersProjector);
    const { rows } = await db.pool.query('select * from read.users where id = $1', [userId]);
    expect(rows[0]).toMatchObject({
      first_name: 'Anne',
      email: 'anne@granite.example',
      is_admin: true,
      mfa_enabled: true,
      otp_ip: '10.0.0.1',
      otp_device: 'Firefox',
      api_granted: true,
      api_token: 'mrn_abc',
    });
    expect(rows[0].archived_at).toBeInstanceOf(Date);
    expect(rows[0].agreed_to_terms_at).toBeInstanceOf(Date);
  });

  it('disputes: one row per submission; a rebuild yields the same rows', async () => {
    const tables = await expectRebuildEqualsIncremental({ pool: db.pool, store }, disputesProjector);
    expect(tables['read.disputes']).toHaveLength(1);
  });
});
