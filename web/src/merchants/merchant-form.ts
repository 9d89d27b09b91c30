import { formatEinInput, MerchantFields, type MerchantView, type State } from '@mrn/contracts';
import { type FieldErrors, schemaErrors } from '../forms/validate.ts';

/** The merchant fields as the form holds them: text as typed, EIN as 12-3456789. */
export interface MerchantFormValues {
  fein: string;
  legal_name: string;
  dba: string;
  street1: string;
  street2: string;
  city: string;
  state: string;
  business_phone: string;
  business_startdate: string;
  industry: string;
}
export type MerchantField = keyof MerchantFormValues;
export type FormErrors<F extends string> = FieldErrors<F>;

/** The EIN/BN as typed in the form: two digits, a hyphen, seven digits (core spec §5). */
export const EIN_INPUT_LENGTH = 10;

export const MERCHANT_LABELS: Record<MerchantField, string> = {
  fein: 'EIN or BN',
  legal_name: 'Legal Name',
  dba: 'DBA',
  street1: 'Street 1',
  street2: 'Street 2',
  city: 'City',
  state: 'State',
  business_phone: 'Business Phone',
  business_startdate: 'Business Start Date',
  industry: 'Industry',
};

/** Longest text the server accepts for each field (contracts' MerchantFields). */
export const MERCHANT_MAX: Record<Exclude<MerchantField, 'state' | 'business_startdate'>, number> = {
  fein: EIN_INPUT_LENGTH,
  legal_name: 200,
  dba: 200,
  street1: 200,
  street2: 200,
  city: 100,
  business_phone: 40,
  industry: 120,
};

export const emptyMerchantValues = (fein = ''): MerchantFormValues => ({
  fein: formatEinInput(fein),
  legal_name: '',
  dba: '',
  street1: '',
  street2: '',
  city: '',
  state: '',
  business_phone: '',
  business_startdate: '',
  industry: '',
});

export const merchantValuesOf = (m: MerchantView): MerchantFormValues => ({
  fein: formatEinInput(m.fein),
  legal_name: m.legal_name,
  dba: m.dba ?? '',
  street1: m.street1 ?? '',
  street2: m.street2 ?? '',
  city: m.city,
  state: m.state,
  business_phone: m.business_phone ?? '',
  business_startdate: m.business_startdate ?? '',
  industry: m.industry ?? '',
});

/**
 * Merchant rules of core spec §5, checked with the server's own schema (MerchantFields); the form adds
 * the one rule about typing: the EIN/BN is entered as exactly 10 characters, 12-3456789.
 */
export function validateMerchant(values: MerchantFormValues): FormErrors<MerchantField> {
  const errors = schemaErrors(MerchantFields, merchantBody(values), MERCHANT_LABELS);
  if (!errors.fein && values.fein.length !== EIN_INPUT_LENGTH)
    errors.fein = `${MERCHANT_LABELS.fein} must be exactly 10 characters, as 12-3456789`;
  return errors;
}

const optional = (value: string): string | null => value.trim() || null;

/** The `merchant` object of add and update merchant. */
export function merchantBody(values: MerchantFormValues) {
  return {
    fein: values.fein,
    legal_name: values.legal_name.trim(),
    dba: optional(values.dba),
    street1: optional(values.street1),
    street2: optional(values.street2),
    city: values.city.trim(),
    state: values.state as State,
    business_phone: optional(values.business_phone),
    business_startdate: optional(values.business_startdate),
    industry: optional(values.industry),
  };
}
