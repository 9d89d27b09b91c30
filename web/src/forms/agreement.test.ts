import { routes } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import { validateChangePassword, validateMember } from '../accounts/validation.ts';
import { merchantBody, validateMerchant } from '../merchants/merchant-form.ts';
import { noteBody, validateNote } from '../merchants/note-form.ts';
import { validateLogin } from '../pages/login/login-validation.ts';
import { disputeBody, validateDispute } from '../pages/public/dispute-form.ts';

// The browser and the server flag the same fields for the same input: the form's field names map onto
// the server's field paths, and no rule is checked on one side only.

/** The fields the server's 400 would name for a body, without the route's wrapper (`merchant.`). */
function serverFields(
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } },
  body: unknown,
  prefix = '',
) {
  const result = schema.safeParse(body);
  if (result.success) return [];
  return [...new Set(result.error!.issues.map((i) => i.path.map(String).join('.')))]
    .map((p) => (p.startsWith(prefix) ? p.slice(prefix.length) : p))
    .sort();
}
const flagged = (errors: object) => Object.keys(errors).sort();

const merchant = {
  fein: '45-1234567',
  legal_name: 'Sunrise Bakery LLC',
  dba: '',
  street1: '',
  street2: '',
  city: 'Tampa',
  state: 'FL',
  business_phone: '',
  business_startdate: '',
  industry: '',
};
const note = {
  category: 'Slow Pay' as const,
  note: 'Late twice.',
  submission_source: 'in-house' as const,
  broker_name: '',
};

describe('the merchant form and POST /api/merchants', () => {
  it.each([
    ['a valid merchant', {}],
    ['missing required fields', { legal_name: ' ', city: '', state: '' }],
    ['too long', { legal_name: 'x'.repeat(201), industry: 'y'.repeat(121) }],
    ['an impossible date', { business_startdate: '2023-02-31' }],
    ['a date out of range', { business_startdate: '1700-01-01' }],
    ['a bad EIN', { fein: '45-12' }],
  ])('agree on %s', (_case, change) => {
    const values = { ...merchant, ...change };
    const body = { merchant: merchantBody(values), note: noteBody(note) };
    expect(flagged(validateMerchant(values))).toEqual(
      serverFields(routes.addMerchant.body!, body, 'merchant.'),
    );
  });
});

describe('the note form and POST /api/merchants/:id/notes', () => {
  it.each([
    ['a valid note', {}],
    ['missing category and note', { category: '' as const, note: '' }],
    ['a broker without a broker name', { submission_source: 'broker' as const }],
    ['a note too long', { note: 'x'.repeat(5001) }],
  ])('agree on %s', (_case, change) => {
    const values = { ...note, ...change };
    const errors = validateNote(values, ['Slow Pay', 'Stacking History']);
    expect(flagged(errors)).toEqual(serverFields(routes.addNote.body!, { note: noteBody(values) }, 'note.'));
  });
});

describe('the dispute form and POST /api/disputes', () => {
  const dispute = {
    fein: '45-1234567',
    first_name: 'Sam',
    last_name: 'Owner',
    email: 'sam@sunrise.example',
    legal_name: 'Sunrise Bakery LLC',
    dba: '',
    city: 'Tampa',
    state: 'FL',
    reason: 'The default was paid.',
  };
  it.each([
    ['a valid dispute', {}],
    ['missing fields', { first_name: '', reason: ' ', state: '' }],
    ['a bad e-mail and EIN', { email: 'sam@', fein: '1-2' }],
  ])('agree on %s', (_case, change) => {
    const values = { ...dispute, ...change };
    expect(flagged(validateDispute(values))).toEqual(
      serverFields(routes.createDispute.body!, { dispute: disputeBody(values) }, 'dispute.'),
    );
  });
});

describe('account forms', () => {
  it('agree with POST /api/accounts/:id/users on members', () => {
    const values = { first_name: '', last_name: 'x'.repeat(65), email: 'nina@' };
    expect(flagged(validateMember(values))).toEqual(
      serverFields(routes.createUser.body!, { user: values }, 'user.'),
    );
  });

  it('agree with PUT change_password on passwords (names mapped)', () => {
    const cases = [
      { oldPassword: '', newPassword: 'short', confirmPassword: 'other' },
      { oldPassword: 'old-pass', newPassword: 'long-enough-1', confirmPassword: 'long-enough-2' },
      { oldPassword: 'old-pass', newPassword: 'long-enough-1', confirmPassword: 'long-enough-1' },
    ];
    const toForm = {
      old_password: 'oldPassword',
      new_password: 'newPassword',
      confirm_password: 'confirmPassword',
    };
    for (const values of cases) {
      const body = {
        old_password: values.oldPassword,
        new_password: values.newPassword,
        confirm_password: values.confirmPassword,
      };
      const server = serverFields(routes.changePassword.body!, body)
        .map((f) => toForm[f as keyof typeof toForm])
        .sort();
      expect(flagged(validateChangePassword(values, { requireOld: true }))).toEqual(server);
    }
  });

  it('agree with POST /api/auth/login on sign-in', () => {
    for (const values of [
      { email: '', password: '' },
      { email: 'ann@', password: 'x' },
      { email: 'ann@summit.example', password: 'x'.repeat(200) },
    ]) {
      expect(flagged(validateLogin(values))).toEqual(
        serverFields(routes.login.body!, { auth: values }, 'auth.'),
      );
    }
  });
});
