import { createHash } from 'node:crypto';
import {
  addMerchant,
  addNote,
  type CommandDeps,
  loadAccount,
  openAccount,
  registerUser,
  startMembership,
} from '@mrn/command-api';
import type { NoteCategory, PlanLevel } from '@mrn/contracts';
import type { Actor, EventStore } from '@mrn/platform';
import type { ProjectionRunner } from '@mrn/projections';

/** Stable ids, so loading the demo twice recognises what is already there. */
const demoId = (name: string): string => {
  const h = createHash('sha1').update(`mrn-demo:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export const DEMO_PASSWORD = 'demo-password-2026';

interface DemoFunder {
  key: string;
  name: string;
  website: string;
  domain: string;
  plan: PlanLevel;
  /**
   * paid: its admin starts the membership with a test card through Start Membership, as a user would
   * (billing test mode), so its card, invoices, plan changes and the revenue widget agree; trialing: a
   * trial, nothing billed.
   */
  membership: 'paid' | 'trialing';
  /** The test card token the admin pays with. */
  card?: string;
  people: { first: string; last: string; admin: boolean }[];
}

export const DEMO_FUNDERS: DemoFunder[] = [
  {
    key: 'summit',
    name: 'Summit Capital Funding',
    website: 'https://summitcapital.example',
    domain: 'summitcapital.example',
    plan: 'PRO',
    membership: 'paid',
    card: 'tok_visa',
    people: [
      { first: 'Dana', last: 'Whitfield', admin: true },
      { first: 'Marco', last: 'Reyes', admin: false },
    ],
  },
  {
    key: 'harbor',
    name: 'Harbor Business Advance',
    website: 'https://harboradvance.example',
    domain: 'harboradvance.example',
    plan: 'BASIC',
    membership: 'paid',
    card: 'tok_mastercard',
    people: [
      { first: 'Priya', last: 'Natarajan', admin: true },
      { first: 'Tom', last: 'Becker', admin: false },
    ],
  },
  {
    key: 'lakeside',
    name: 'Lakeside Merchant Partners',
    website: 'https://lakeside.example',
    domain: 'lakeside.example',
    plan: 'BASIC',
    membership: 'trialing',
    people: [{ first: 'Alex', last: 'Morgan', admin: true }],
  },
];

/**
 * `npm start -- --demo`: a few funders and their people, created through the same commands users issue;
 * the paying ones pay for their membership through Start Membership with a test card (billing test
 * mode; with a real STRIPE_SECRET_KEY nothing is charged and they get a trial instead). The platform's
 * own account is left as the server made it.
 */
export async function loadDemoNetwork(deps: CommandDeps, _projections: ProjectionRunner): Promise<void> {
  const ctx = { now: new Date() };
  const metadata = { source: 'system' as const };
  const created: string[] = [];
  const billingTestMode = deps.billing.mode === 'test';
  for (const f of DEMO_FUNDERS) {
    const accountId = demoId(`account:${f.key}`);
    if ((await loadAccount(deps, accountId)).state.status === 'open') continue;
    const people = f.people.map((p) => ({ ...p, email: `${p.first}.${p.last}@${f.domain}`.toLowerCase() }));
    const paid = f.membership === 'paid' && billingTestMode;
    await openAccount(
      deps,
      {
        accountId,
        name: f.name,
        website: f.website,
        primaryContactEmail: people[0]!.email,
        planLevel: f.plan,
        membershipStatus: paid ? 'none' : 'trialing',
        isPlatform: false,
      },
      ctx,
      metadata,
    );
    for (const p of people) {
      await registerUser(
        deps,
        {
          userId: demoId(`user:${p.email}`),
          accountId,
          email: p.email,
          firstName: p.first,
          lastName: p.last,
          isAdmin: p.admin,
          isDmAdmin: false,
          password: DEMO_PASSWORD,
          agreedToTermsAt: ctx.now.toISOString(),
        },
        ctx,
        metadata,
      );
      created.push(`${p.email} (${f.name}${p.admin ? ', admin' : ''})`);
    }
    if (paid) {
      // The funder's admin pays, as on /membership: the same command, the card charged by the provider.
      const admin = people.find((p) => p.admin)!;
      const actor: Actor = {
        userId: demoId(`user:${admin.email}`),
        accountId,
        sessionId: 'demo',
        sessionVersion: 0,
        isAdmin: true,
        isDmAdmin: false,
        planLevel: f.plan,
        mfaPending: false,
      };
      await startMembership(
        deps,
        accountId,
        { token: f.card ?? 'tok_visa', email: admin.email, planLevel: f.plan },
        { now: new Date(), actor },
        { ...metadata, actorUserId: actor.userId, actorAccountId: accountId },
      );
    }
  }
  if (!billingTestMode && created.length > 0)
    deps.logger.info('billing is live: the demo funders get trials, nothing is charged');
  if (created.length > 0) await loadDemoMerchants(deps);
  if (created.length > 0) {
    process.stdout.write(
      `\n  Demo network loaded. Every demo user's password is ${DEMO_PASSWORD}:\n${created.map((c) => `    ${c}`).join('\n')}\n`,
    );
  } else deps.logger.info('demo network already loaded');
}

interface DemoMerchant {
  fein: string;
  legalName: string;
  dba: string | null;
  city: string;
  state: string;
  industry: string;
  notes: { by: string; category: NoteCategory; text: string; broker?: string }[];
}

const DEMO_MERCHANTS: DemoMerchant[] = [
  {
    fein: '451234567',
    legalName: 'Sunrise Diner Inc',
    dba: 'Sunrise Diner',
    city: 'Tampa',
    state: 'FL',
    industry: 'Restaurants',
    notes: [
      {
        by: 'marco.reyes@summitcapital.example',
        category: 'Slow Pay',
        text: 'Missed 6 of 20 daily debits in March; caught up in April.',
        broker: 'Gulf Coast ISO',
      },
      {
        by: 'tom.becker@harboradvance.example',
        category: 'Stacking History',
        text: 'Took a second position 9 days after our funding.',
      },
    ],
  },
  {
    fein: '562345678',
    legalName: 'Keystone Auto Repair LLC',
    dba: null,
    city: 'Pittsburgh',
    state: 'PA',
    industry: 'Automotive',
    notes: [
      {
        by: 'priya.natarajan@harboradvance.example',
        category: 'Suspicious Activity',
        text: 'Bank statements submitted show altered balances.',
      },
    ],
  },
  {
    fein: '673456789',
    legalName: 'Blue Harbor Bakery LLC',
    dba: 'Blue Harbor',
    city: 'Portland',
    state: 'ME',
    industry: 'Food',
    notes: [
      {
        by: 'dana.whitfield@summitcapital.example',
        category: 'Default Account',
        text: 'Blocked ACH after 30 payments; balance $18,400 outstanding.',
      },
      {
        by: 'alex.morgan@lakeside.example',
        category: 'Other',
        text: 'Owner requested payoff letter; no issues to date.',
      },
    ],
  },
];

async function loadDemoMerchants(deps: { store: EventStore }): Promise<void> {
  const people = new Map(
    DEMO_FUNDERS.flatMap((f) =>
      f.people.map((p) => {
        const email = `${p.first}.${p.last}@${f.domain}`.toLowerCase();
        return [
          email,
          {
            userId: demoId(`user:${email}`),
            accountId: demoId(`account:${f.key}`),
            planLevel: f.plan,
            isAdmin: p.admin,
          },
        ] as const;
      }),
    ),
  );
  const actorOf = (email: string): Actor => {
    const p = people.get(email)!;
    return {
      userId: p.userId,
      accountId: p.accountId,
      sessionId: 'demo',
      sessionVersion: 0,
      isAdmin: p.isAdmin,
      isDmAdmin: false,
      planLevel: p.planLevel,
      mfaPending: false,
    };
  };
  const metadata = { source: 'system' as const };
  for (const m of DEMO_MERCHANTS) {
    const merchantId = demoId(`merchant:${m.fein}`);
    const [first, ...rest] = m.notes;
    const actor = actorOf(first!.by);
    const ctx = { now: new Date(), actor };
    const by = (a: Actor) => ({ accountId: a.accountId, userId: a.userId, proxiedCreator: null });
    const content = (n: DemoMerchant['notes'][number]) => ({
      category: n.category,
      note: n.text,
      submissionSource: n.broker ? ('broker' as const) : ('in-house' as const),
      brokerName: n.broker ?? null,
    });
    await addMerchant(
      deps,
      {
        type: 'AddMerchant',
        merchantId,
        details: {
          fein: m.fein,
          legalName: m.legalName,
          dba: m.dba,
          street1: null,
          street2: null,
          city: m.city,
          state: m.state,
          businessPhone: null,
          businessStartdate: null,
          industry: m.industry,
        },
        noteId: demoId(`note:${m.fein}:0`),
        note: content(first!),
        by: by(actor),
      },
      ctx,
      metadata,
    );
    for (const [i, n] of rest.entries()) {
      const a = actorOf(n.by);
      await addNote(
        deps,
        merchantId,
        { type: 'AddNote', noteId: demoId(`note:${m.fein}:${i + 1}`), note: content(n), by: by(a) },
        { now: new Date(), actor: a },
        metadata,
      );
    }
  }
}
