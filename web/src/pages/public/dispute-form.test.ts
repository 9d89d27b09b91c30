import { describe, expect, it } from 'vitest';
import { type DisputeValues, disputeBody, emptyDispute, validateDispute } from './dispute-form.ts';

const filled: DisputeValues = {
  fein: '45-1234567',
  first_name: 'Sam',
  last_name: 'Owner',
  email: 'sam@sunrisediner.example',
  legal_name: 'Sunrise Diner Inc',
  dba: '',
  city: 'Tampa',
  state: 'FL',
  reason: 'The default was settled in 2025.',
};

describe('dispute form', () => {
  it('accepts a complete dispute without DBA', () => {
    expect(validateDispute(filled)).toEqual({});
  });

  it('requires every field but DBA', () => {
    expect(Object.keys(validateDispute(emptyDispute())).sort()).toEqual(
      ['city', 'email', 'fein', 'first_name', 'last_name', 'legal_name', 'reason', 'state'].sort(),
    );
    expect(validateDispute({ ...filled, fein: '45-12' }).fein).toBe('EIN must be 9 digits, as 12-3456789');
    expect(validateDispute({ ...filled, email: 'sam' }).email).toBe('Email is not a valid email address');
  });

  it('sends an empty DBA as null and trims text', () => {
    expect(disputeBody({ ...filled, city: ' Tampa ' })).toMatchObject({
      dba: null,
      city: 'Tampa',
      state: 'FL',
    });
  });
});
