import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@mrn/contracts';
import { PostgresEventStore, platformMigrations } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { expectRebuildEqualsIncremental } from '../testing/replay-equality.ts';
import { accountsProjector, appSettingsProjector, usersProjector } from './index.ts';

let db: TestDatabase;
let store: PostgresEventStore;
const accountId = randomUUID();
const userId = randomUUID();

const append = (stream: string, ...events: DomainEvent[]) =>
  store.appendToStream(
    stream,
    events.map((e) => ({ id: randomUUID(), ...e })),
    { expectedRevision: 'any' },
  );

beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
  store = new PostgresEventStore(db.pool);
  await append(streams.account(accountId), {
    type: 'AccountOpened',
    data: {
      accountId,
      name: 'Summit',
      website: 'https://summit.example',
      primaryContactEmail: 'ops@summit.example',
      planLevel: 'PRO',
      membershipStatus: 'active',
      isPlatform: false,
    },
  });
  await append(
    streams.user(userId),
    {
      type: 'UserRegistered',
      data: {
        userId,
        accountId,
        email: 'ann@summit.example',
        firstName: 'Ann',
        lastName: 'Lee',
        isAdmin: true,
        isDmAdmin: false,
        passwordHash: 'h',
        agreedToTermsAt: null,
      },
    },
    { type: 'UserSignedIn', data: { userId, sessionId: randomUUID() } },
    { type: 'UserSessionsRevoked', data: { userId, sessionVersion: 1, reason: 'test' } },
  );
  await append(streams.appSettings(), {
    type: 'AppSettingsChanged',
    data: {
      dashboardMessageEnabled: true,
      dashboardMessageSeverity: 'error',
      dashboardMessageTitle: null,
      dashboardMessage: 'Down',
    },
  });
  await append(streams.appSettings(), {
    type: 'AppSettingsChanged',
    data: {
      dashboardMessageEnabled: true,
      dashboardMessageSeverity: 'info',
      dashboardMessageTitle: 'Hi',
      dashboardMessage: 'Up',
    },
  });
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

describe('read models', () => {
  it('accounts: one row per opened account; a rebuild yields the same rows', async () => {
    await expectRebuildEqualsIncremental({ pool: db.pool, store }, accountsProjector);
    const { rows } = await db.pool.query(
      'select name, plan_level, membership_status, contribution_locked from read.accounts where id = $1',
      [accountId],
    );
    expect(rows).toEqual([
      { name: 'Summit', plan_level: 'PRO', membership_status: 'active', contribution_locked: false },
    ]);
  });

  it('users: registered, last sign-in and session version; a rebuild yields the same rows', async () => {
    await expectRebuildEqualsIncremental({ pool: db.pool, store }, usersProjector);
    const { rows } = await db.pool.query(
      'select email, is_admin, session_version, last_sign_in_at from read.users where id = $1',
      [userId],
    );
    expect(rows[0]).toMatchObject({ email: 'ann@summit.example', is_admin: true, session_version: 1 });
    expect(rows[0].last_sign_in_at).toBeInstanceOf(Date);
  });

  it('app settings: the latest change wins; a rebuild yields the same row', async () => {
    await expectRebuildEqualsIncremental({ pool: db.pool, store }, appSettingsProjector);
    const { rows } = await db.pool.query(
      'select dashboard_message_severity, dashboard_message_title, dashboard_message from read.app_settings',
    );
    expect(rows).toEqual([
      { dashboard_message_severity: 'info', dashboard_message_title: 'Hi', dashboard_message: 'Up' },
    ]);
  });
});
