import { formatEinInput, STATES } from '@mrn/contracts';
import type { ReactElement } from 'react';
import { SelectField, TextField } from '../ui/fields.tsx';
import type { FormState } from '../ui/use-form.ts';
import {
  MERCHANT_LABELS,
  MERCHANT_MAX,
  type MerchantField,
  type MerchantFormValues,
  validateMerchant,
} from './merchant-form.ts';

export const EIN_HELPER_TEXT = 'Federal employer identification number or business number';

interface MerchantFieldsFormProps {
  idPrefix: string;
  form: FormState<MerchantFormValues>;
  disabled?: boolean;
  /** Called after the EIN field loses focus (the duplicate check of add merchant). */
  onEinBlur?: () => void;
  einRightElement?: ReactElement;
  /** An EIN message shown below the field when it has no error (e.g. "already exists"). */
  einNotice?: string;
  autoFocus?: boolean;
}

/** The merchant fields of add merchant and edit merchant (core spec §3, §5). */
export function MerchantFieldsForm({
  idPrefix,
  form,
  disabled,
  onEinBlur,
  einRightElement,
  einNotice,
  autoFocus,
}: MerchantFieldsFormProps) {
  const errorOf = form.errorOf(validateMerchant(form.values));
  const text = (field: Exclude<MerchantField, 'fein' | 'state'>) => ({
    id: `${idPrefix}-${field}`,
    label: MERCHANT_LABELS[field],
    ...form.bindText(field, errorOf(field)),
    disabled,
    maxLength: field === 'business_startdate' ? undefined : MERCHANT_MAX[field],
  });

  return (
    <div className="mrn-form-grid">
      <TextField
        id={`${idPrefix}-fein`}
        label={MERCHANT_LABELS.fein}
        value={form.values.fein}
        onValueChange={(value) => form.setField('fein', formatEinInput(value))}
        onBlur={() => {
          form.touch('fein');
          onEinBlur?.();
        }}
        error={errorOf('fein')}
        helperText={einNotice ?? EIN_HELPER_TEXT}
        required
        disabled={disabled}
        // No maxLength: a pasted "12 345 6789" is longer than the formatted value and would lose its
        // last digit; the formatter keeps 9 digits and the hyphen, so the value never exceeds 10.
        inputMode="numeric"
        placeholder="12-3456789"
        pattern="\d{2}-\d{7}"
        autoComplete="off"
        rightElement={einRightElement}
        autoFocus={autoFocus}
      />
      <TextField {...text('legal_name')} required autoComplete="organization" />
      <TextField {...text('dba')} />
      <TextField {...text('street1')} autoComplete="address-line1" />
      <TextField {...text('street2')} autoComplete="address-line2" />
      <TextField {...text('city')} required autoComplete="address-level2" />
      <SelectField
        id={`${idPrefix}-state`}
        label={MERCHANT_LABELS.state}
        value={form.values.state}
        onValueChange={(value) => {
          form.setField('state', value);
          form.touch('state');
        }}
        onBlur={() => form.touch('state')}
        error={errorOf('state')}
        required
        disabled={disabled}
        options={STATES}
        placeholder="Select a state"
      />
      <TextField {...text('business_phone')} type="tel" inputMode="tel" autoComplete="tel" />
      <TextField {...text('business_startdate')} type="date" />
      <TextField {...text('industry')} />
    </div>
  );
}
