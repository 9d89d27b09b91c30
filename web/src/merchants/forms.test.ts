import { describe, expect, it } from 'vitest';
import { emptyMerchantValues, merchantBody, validateMerchant } from './merchant-form.ts';
import {
  categoryChoices,
  emptyNoteValues,
  noteBody,
  validateNote,
  validateOnBehalfOf,
  withQuickNote,
  withSource,
} from './note-form.ts';
import { serverFieldErrors } from './server-fields.ts';

const validMerchant = {
  ...emptyMerchantValues('451234567'),
  legal_name: 'Sunrise Diner Inc',
  city: 'Tampa',
  state: 'FL',
};

describe('merchant form', () => {
  it('pre-fills a searched EIN in the 12-3456789 form', () => {
    expect(emptyMerchantValues('451234567').fein).toBe('45-1234567');
    expect(emptyMerchantValues().fein).toBe('');
  });

  it('accepts a complete merchant', () => {
    expect(validateMerchant(validMerchant)).toEqual({});
  });

  it('requires EIN or BN, Legal Name, City and State', () => {
    expect(validateMerchant(emptyMerchantValues())).toEqual({
      fein: 'EIN or BN is required',
      legal_name: 'Legal Name is required',
      city: 'City is required',
      state: 'State is required',
    });
    expect(validateMerchant({ ...validMerchant, legal_name: '   ' }).legal_name).toBe(
      'Legal Name is required',
    );
  });

  it('wants the EIN or BN at exactly 10 characters', () => {
    expect(validateMerchant({ ...validMerchant, fein: '45-12345' }).fein).toBe(
      'EIN or BN must be 9 digits, as 12-3456789',
    );
    // Nine digits are an EIN to the server; the form still wants them typed as 12-3456789.
    expect(validateMerchant({ ...validMerchant, fein: '451234567' }).fein).toBe(
      'EIN or BN must be exactly 10 characters, as 12-3456789',
    );
  });

  it('checks the state list, lengths and the start date', () => {
    expect(validateMerchant({ ...validMerchant, state: 'XX' }).state).toBe('State is required');
    expect(validateMerchant({ ...validMerchant, city: 'x'.repeat(101) }).city).toBe(
      'City must be at most 100 characters',
    );
    expect(validateMerchant({ ...validMerchant, business_startdate: '2020-02-30x' }).business_startdate).toBe(
      'Business Start Date must be a date as YYYY-MM-DD',
    );
    expect(validateMerchant({ ...validMerchant, business_startdate: '2023-02-31' }).business_startdate).toBe(
      'Business Start Date is not a real calendar date',
    );
    expect(validateMerchant({ ...validMerchant, business_startdate: '2020-02-03' })).toEqual({});
  });

  it('sends trimmed text and null for empty optional fields', () => {
    expect(merchantBody({ ...validMerchant, legal_name: ' Sunrise ', dba: '  ' })).toEqual({
      fein: '45-1234567',
      legal_name: 'Sunrise',
      dba: null,
      street1: null,
      street2: null,
      city: 'Tampa',
      state: 'FL',
      business_phone: null,
      business_startdate: null,
      industry: null,
    });
  });
});

describe('note form', () => {
  const all = categoryChoices(true);
  const member = categoryChoices(false);

  it('offers Merchant Dispute to platform administrators only, and Default Satisfied to members adding', () => {
    expect(all).toContain('Default Satisfied');
    expect(all).toContain('Merchant Dispute');
    expect(member).toContain('Default Satisfied');
    expect(member).not.toContain('Merchant Dispute');
  });

  it('keeps the edited note’s own category in the list', () => {
    expect(categoryChoices(false, 'Slow Pay')).toEqual(member.filter((c) => c !== 'Default Satisfied'));
    expect(categoryChoices(false, 'Default Satisfied')[0]).toBe('Default Satisfied');
  });

  it('requires category and note, and a broker name for a broker source', () => {
    expect(validateNote(emptyNoteValues(), member)).toEqual({
      category: 'Category is required',
      note: 'Note is required',
    });
    const broker = {
      category: 'Slow Pay' as const,
      note: 'Late',
      submission_source: 'broker' as const,
      broker_name: '',
    };
    expect(validateNote(broker, member)).toEqual({
      broker_name: 'Broker Name is required for a broker submission',
    });
    expect(validateNote({ ...broker, broker_name: 'Acme ISO' }, member)).toEqual({});
  });

  it('offers members Default Satisfied when adding, not when editing', () => {
    expect(categoryChoices(false)).toContain('Default Satisfied');
    expect(categoryChoices(false)).not.toContain('Merchant Dispute');
    expect(categoryChoices(false, 'Slow Pay')).not.toContain('Default Satisfied');
    expect(categoryChoices(true, 'Slow Pay')).toContain('Default Satisfied');
  });

  it('refuses a category the user may not pick', () => {
    const values = { ...emptyNoteValues(), category: 'Default Satisfied' as const, note: 'Paid in Full' };
    expect(validateNote(values, categoryChoices(false, 'Slow Pay')).category).toBe(
      'Category Default Satisfied is not available to you',
    );
    expect(validateNote(values, all)).toEqual({});
  });

  it('clears the broker name when the source changes', () => {
    const broker = { ...emptyNoteValues(), submission_source: 'broker' as const, broker_name: 'Acme ISO' };
    expect(withSource(broker, 'in-house')).toMatchObject({ submission_source: 'in-house', broker_name: '' });
    expect(withSource(broker, 'broker').broker_name).toBe('Acme ISO');
  });

  it('fills the note from a Default Satisfied quick note', () => {
    const values = { ...emptyNoteValues(), category: 'Default Satisfied' as const, note: 'old' };
    expect(withQuickNote(values, 'Paid in Full').note).toBe('Paid in Full');
    expect(withQuickNote(values, 'Settled for less than originally owed').note).toBe(
      'Settled for less than originally owed',
    );
    expect(withQuickNote(values, 'Other').note).toBe('');
  });

  it('sends the broker name only for a broker source', () => {
    expect(
      noteBody({ category: 'Slow Pay', note: ' Late ', submission_source: 'in-house', broker_name: 'x' }),
    ).toEqual({ category: 'Slow Pay', note: 'Late', submission_source: 'in-house', broker_name: null });
    expect(
      noteBody({ category: 'Slow Pay', note: 'Late', submission_source: '', broker_name: '' }),
    ).toMatchObject({
      submission_source: null,
      broker_name: null,
    });
  });

  it('checks the on-behalf-of account id', () => {
    expect(validateOnBehalfOf('')).toBeUndefined();
    expect(validateOnBehalfOf('8e8f7d3a-1b2c-4d5e-8f90-123456789abc')).toBeUndefined();
    expect(validateOnBehalfOf('summit')).toBe('Add on Behalf of must be a funder account id (a uuid)');
  });
});

describe('serverFieldErrors', () => {
  it('takes the fields of one body part with the form’s labels', () => {
    const body = {
      errors: 'Invalid',
      fields: [
        { field: 'merchant.fein', message: 'must be 9 digits, as 12-3456789' },
        { field: 'merchant.unknown', message: 'x' },
        { field: 'note.note', message: 'is required' },
      ],
    };
    expect(serverFieldErrors(body, 'merchant', { fein: 'EIN or BN', city: 'City' })).toEqual({
      fein: 'EIN or BN must be 9 digits, as 12-3456789',
    });
    expect(serverFieldErrors(body, 'note', { note: 'Note' })).toEqual({ note: 'Note is required' });
    expect(serverFieldErrors(null, 'note', { note: 'Note' })).toEqual({});
  });

  it('keeps a whole-sentence message as it is', () => {
    const body = {
      errors: 'x',
      fields: [{ field: 'old_password', message: 'The current password is not correct.' }],
    };
    expect(serverFieldErrors(body, '', { old_password: 'Old Password' })).toEqual({
      old_password: 'The current password is not correct.',
    });
  });
});
