import { formatEinInput, normaliseEin } from '@mrn/contracts/domain/ein';
import { STATES, type State } from '@mrn/contracts/domain/us-states';
import { type Errors, emailError, textError } from '../../accounts/validation.ts';

export interface DisputeValues {
  fein: string;
  first_name: string;
  last_name: string;
  email: string;
  legal_name: string;
  dba: string;
  city: string;
  state: string;
  reason: string;
}

export const DISPUTE_LABELS: Record<keyof DisputeValues, string> = {
  fein: 'EIN',
  first_name: 'First Name',
  last_name: 'Last Name',
  email: 'Email',
  legal_name: 'Legal Business Name',
  dba: 'DBA',
  city: 'City',
  state: 'State',
  reason: 'Reason for Dispute',
};

export const DISPUTE_MAX = {
  first_name: 64,
  last_name: 64,
  email: 64,
  legal_name: 200,
  dba: 200,
  city: 100,
  reason: 5000,
} as const;

export const emptyDispute = (): DisputeValues => ({
  fein: '',
  first_name: '',
  last_name: '',
  email: '',
  legal_name: '',
  dba: '',
  city: '',
  state: '',
  reason: '',
});

/** Dispute (core §5): every field but DBA required; the EIN as 12-3456789. */
export function validateDispute(values: DisputeValues): Errors<keyof DisputeValues> {
  const errors: Errors<keyof DisputeValues> = {};
  if (!values.fein) errors.fein = `${DISPUTE_LABELS.fein} is required`;
  else if (normaliseEin(values.fein).length !== 9 || formatEinInput(values.fein) !== values.fein)
    errors.fein = `${DISPUTE_LABELS.fein} must be 9 digits, as 12-3456789`;
  for (const field of ['first_name', 'last_name', 'legal_name', 'city', 'reason'] as const) {
    const error = textError(DISPUTE_LABELS[field], values[field], DISPUTE_MAX[field]);
    if (error) errors[field] = error;
  }
  const dba = textError(DISPUTE_LABELS.dba, values.dba, DISPUTE_MAX.dba, false);
  if (dba) errors.dba = dba;
  const email = emailError(DISPUTE_LABELS.email, values.email);
  if (email) errors.email = email;
  if (!(STATES as readonly string[]).includes(values.state))
    errors.state = `${DISPUTE_LABELS.state} is required`;
  return errors;
}

export const disputeBody = (values: DisputeValues) => ({
  fein: values.fein,
  first_name: values.first_name.trim(),
  last_name: values.last_name.trim(),
  email: values.email.trim(),
  legal_name: values.legal_name.trim(),
  dba: values.dba.trim() || null,
  city: values.city.trim(),
  state: values.state as State,
  reason: values.reason.trim(),
});
