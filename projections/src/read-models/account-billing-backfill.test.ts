import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@mrn/contracts';
import { PostgresEventStore, platformMigrations, runMigrations } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';

// Migration 0018 adds the billing state's columns to read.accounts (issue 21): accounts projected
// before it get what their events say, so an upgraded installation shows paying funders as paying
// (and counts them as revenue) without a rebuild.

const MIGRATION = 'projections/0018_account_billing_state';
let db: TestDatabase;
let store: PostgresEventStore;
const paid = randomUUID();
const lapsed = randomUUID();
const trial = randomUUID();
const legacy = randomUUID();

const append = (id: string, ...events: DomainEvent[]) =>
  store.appendToStream(
    streams.account(id),
    events.map((e) => ({ id: randomUUID(), ...e })),
    { expectedRevision: 'any' },
  );
const started = (accountId: string): DomainEvent => ({
  type: 'AccountMembershipStarted',
  data: {
    accountId,
    planLevel: 'BASIC',
    stripeCustomerId: 'cus_1',
    stripeSubscriptionId: 'sub_1',
    currentPeriodEnd: null,
  },
});

beforeAll(async () => {
  const all = [...platformMigrations(), ...projectionMigrations()];
  db = await createTestDatabase(all.filter((m) => m.id < MIGRATION));
  store = new PostgresEventStore(db.pool);
  for (const id of [paid, lapsed, trial, legacy]) {
    await db.pool.query(
      `insert into read.accounts (id, name, primary_contact_email, plan_level, membership_status, created_at)
       values ($1, 'F', 'ops@f.example', 'BASIC', 'active', now())`,
      [id],
    );
  }
  await append(paid, started(paid), { type: 'AccountApiAccessGranted', data: { accountId: paid } });
  await append(
    lapsed,
    started(lapsed),
    {
      type: 'AccountMembershipCanceled',
      data: {
        accountId: lapsed,
        reason: 'unpaid',
        afterFailedPayment: true,
        providerEndedAt: '2027-01-14T12:00:00.000Z',
      },
    },
    { type: 'AccountApiAccessGranted', data: { accountId: lapsed } },
    { type: 'AccountApiAccessRevoked', data: { accountId: lapsed } },
  );
  await append(
    trial,
    { type: 'AccountTrialStarted', data: { accountId: trial } },
    { type: 'AccountTrialCanceled', data: { accountId: trial } },
  );
  await runMigrations(
    db.pool,
    all.filter((m) => m.id <= MIGRATION),
  );
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

describe('migration 0018: the billing state of accounts already projected', () => {
  it('fills billed, why and when it ended, and the API dates from the events', async () => {
    const { rows } = await db.pool.query('select * from read.accounts');
    const of = (id: string) => rows.find((r) => r.id === id);
    expect(of(paid)).toMatchObject({ billed: true, membership_ended_reason: null, api_revoked_at: null });
    expect(of(paid).api_granted_at).toBeInstanceOf(Date);
    expect(of(lapsed)).toMatchObject({
      billed: false,
      membership_ended_reason: 'unpaid',
      membership_ended_at: new Date('2027-01-14T12:00:00.000Z'),
    });
    expect(of(lapsed).api_revoked_at).toBeInstanceOf(Date);
    expect(of(trial)).toMatchObject({ billed: false, membership_ended_reason: 'trial_canceled' });
    // Opened active without billing: not billed.
    expect(of(legacy)).toMatchObject({ billed: false, membership_ended_reason: null, api_granted_at: null });
  });
});
