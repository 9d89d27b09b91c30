import { randomBytes } from 'node:crypto';
import { addMerchant, addNote, openAccount, registerUser } from '@mrn/command-api';
import type { NoteCategory } from '@mrn/contracts';
import type { Actor, EventStore, Position } from '@mrn/platform';

/** The one merchant the sandbox holds (accounts spec §7: EIN 01-0000001). */
export const SANDBOX_MERCHANT = {
  merchantId: '00000000-0000-4000-8000-5a0d00000001',
  fein: '010000001',
  legalName: 'Sandbox Test Merchant LLC',
  dba: 'Sandbox Coffee',
  city: 'Austin',
  state: 'TX',
  industry: 'Restaurants',
} as const;

/** Who reported the seed: a funder that exists only in the sandbox. */
export const SANDBOX_FUNDER = {
  accountId: '00000000-0000-4000-8000-5a0d00000010',
  userId: '00000000-0000-4000-8000-5a0d00000011',
  name: 'Sandbox Demo Funder',
  // .invalid never resolves (RFC 2606) and cannot collide with a real member's address.
  email: 'demo@sandbox-demo-funder.invalid',
} as const;

export const SANDBOX_NOTES: { noteId: string; category: NoteCategory; note: string }[] = [
  {
    noteId: '00000000-0000-4000-8000-5a0d00000101',
    category: 'Slow Pay',
    note: 'Sandbox note: missed 4 of 20 daily debits in March, caught up in April.',
  },
  {
    noteId: '00000000-0000-4000-8000-5a0d00000102',
    category: 'Stacking History',
    note: 'Sandbox note: took a second position 10 days after funding.',
  },
  {
    noteId: '00000000-0000-4000-8000-5a0d00000103',
    category: 'Default Satisfied',
    note: 'Sandbox note: defaulted in 2024, balance settled in full.',
  },
];

/**
 * Writes the seed into a fresh sandbox through the same commands and deciders as production, so its
 * events and read models are exactly what a partner will meet there. Returns the last position.
 */
export async function seedSandbox(deps: { store: EventStore }): Promise<Position> {
  const now = new Date();
  const metadata = { source: 'system' as const };
  const { accountId, userId } = SANDBOX_FUNDER;
  await openAccount(
    deps,
    {
      accountId,
      name: SANDBOX_FUNDER.name,
      website: null,
      primaryContactEmail: SANDBOX_FUNDER.email,
      planLevel: 'PRO',
      membershipStatus: 'active',
      isPlatform: false,
    },
    { now },
    metadata,
  );
  await registerUser(
    deps,
    {
      userId,
      accountId,
      email: SANDBOX_FUNDER.email,
      firstName: 'Sandbox',
      lastName: 'Demo',
      isAdmin: true,
      isDmAdmin: false,
      // Nobody signs in to the sandbox: a password no one knows.
      password: randomBytes(24).toString('base64url'),
      agreedToTermsAt: now.toISOString(),
    },
    { now },
    metadata,
  );
  const actor: Actor = {
    userId,
    accountId,
    sessionId: 'sandbox-seed',
    sessionVersion: 0,
    isAdmin: true,
    isDmAdmin: false,
    planLevel: 'PRO',
    mfaPending: false,
  };
  const by = { accountId, userId, proxiedCreator: null };
  const [first, ...rest] = SANDBOX_NOTES;
  const content = (n: (typeof SANDBOX_NOTES)[number]) => ({
    category: n.category,
    note: n.note,
    submissionSource: 'in-house' as const,
    brokerName: null,
  });
  const { merchantId, fein, legalName, dba, city, state, industry } = SANDBOX_MERCHANT;
  let last = await addMerchant(
    deps,
    {
      type: 'AddMerchant',
      merchantId,
      details: {
        fein,
        legalName,
        dba,
        street1: '100 Example Street',
        street2: null,
        city,
        state,
        businessPhone: '512-555-0100',
        businessStartdate: '2019-06-01',
        industry,
      },
      noteId: first!.noteId,
      note: content(first!),
      by,
    },
    { now, actor },
    metadata,
  );
  for (const n of rest) {
    last = await addNote(
      deps,
      merchantId,
      { type: 'AddNote', noteId: n.noteId, note: content(n), by },
      { now: new Date(), actor },
      metadata,
    );
  }
  return last.position!;
}
