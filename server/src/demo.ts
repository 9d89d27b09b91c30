import { createHash } from 'node:crypto';
import { loadAccount, openAccount, registerUser } from '@mrn/command-api';
import type { MembershipStatus, PlanLevel } from '@mrn/contracts';
import type { EventStore, Logger, Pool } from '@mrn/platform';
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
  membership: MembershipStatus;
  people: { first: string; last: string; admin: boolean }[];
}

export const DEMO_FUNDERS: DemoFunder[] = [
  {
    key: 'summit',
    name: 'Summit Capital Funding',
    website: 'https://summitcapital.example',
    domain: 'summitcapital.example',
    plan: 'PRO',
    membership: 'active',
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
    membership: 'active',
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

/** `npm start -- --demo`: a few funders and their people, created through the same commands users issue. */
export async function loadDemoNetwork(
  deps: { store: EventStore; logger: Logger; pool: Pool },
  _projections: ProjectionRunner,
): Promise<void> {
  const ctx = { now: new Date() };
  const metadata = { source: 'system' as const };
  const created: string[] = [];
  for (const f of DEMO_FUNDERS) {
    const accountId = demoId(`account:${f.key}`);
    if ((await loadAccount(deps, accountId)).state.status === 'open') continue;
    const people = f.people.map((p) => ({ ...p, email: `${p.first}.${p.last}@${f.domain}`.toLowerCase() }));
    await openAccount(
      deps,
      {
        accountId,
        name: f.name,
        website: f.website,
        primaryContactEmail: people[0]!.email,
        planLevel: f.plan,
        membershipStatus: f.membership,
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
  }
  if (created.length > 0) {
    process.stdout.write(
      `\n  Demo network loaded. Every demo user's password is ${DEMO_PASSWORD}:\n${created.map((c) => `    ${c}`).join('\n')}\n`,
    );
  } else deps.logger.info('demo network already loaded');
}
