import { DisputeFields, formatEinInput, type State } from '@mrn/contracts';
import { type FieldErrors, schemaErrors } from '../../forms/validate.ts';

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

/** Dispute (core §5) with the server's schema: every field but DBA required; the EIN typed as 12-3456789. */
export function validateDispute(values: DisputeValues): FieldErrors<keyof DisputeValues> {
  const errors = schemaErrors(DisputeFields, disputeBody(values), DISPUTE_LABELS);
  if (!errors.fein && formatEinInput(values.fein) !== values.fein)
    errors.fein = `${DISPUTE_LABELS.fein} must be 9 digits, as 12-3456789`;
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
  state: (values.state || undefined) as State,
  reason: values.reason.trim(),
});
