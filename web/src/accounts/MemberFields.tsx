import { Button, Intent } from '@blueprintjs/core';
import { type FormEvent, type ReactNode, useEffect } from 'react';
import { TextField } from '../ui/fields.tsx';
import { useForm } from '../ui/use-form.ts';
import { type Errors, isValid, MEMBER_LABELS, type MemberValues, validateMember } from './validation.ts';

/** First Name, Last Name, Email Address (all required) with the save button (accounts §2, §5). */
export function MemberFields({
  idPrefix,
  initial,
  submitText,
  saving,
  serverErrors,
  onSubmit,
  extraActions,
  autoFocus,
}: {
  idPrefix: string;
  initial: MemberValues;
  submitText: string;
  saving: boolean;
  /** Errors from the last save (a 400's fields, the e-mail domain rule); shown until the field changes. */
  serverErrors: Errors<keyof MemberValues>;
  onSubmit: (values: MemberValues) => void;
  extraActions?: ReactNode;
  autoFocus?: boolean;
}) {
  const form = useForm<MemberValues>(initial);
  const { setServerErrors } = form;
  useEffect(() => setServerErrors(serverErrors), [serverErrors, setServerErrors]);
  const errors = validateMember(form.values);
  const errorOf = form.errorOf(errors);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.touchAll();
    if (!isValid(errors) || saving) return;
    onSubmit({
      first_name: form.values.first_name.trim(),
      last_name: form.values.last_name.trim(),
      email: form.values.email.trim(),
    });
  };
  const field = (name: keyof MemberValues) => ({
    id: `${idPrefix}-${name}`,
    label: MEMBER_LABELS[name],
    ...form.bindText(name, errorOf(name)),
    required: true,
    maxLength: 64,
    disabled: saving,
  });

  return (
    <form onSubmit={submit} noValidate aria-label={submitText}>
      <div className="mrn-form-grid">
        <TextField {...field('first_name')} autoComplete="given-name" autoFocus={autoFocus} />
        <TextField {...field('last_name')} autoComplete="family-name" />
        <TextField {...field('email')} type="email" autoComplete="email" className="mrn-span-2" />
      </div>
      <div className="mrn-form-actions">
        {extraActions}
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          icon="floppy-disk"
          text={submitText}
          disabled={!isValid(errors)}
          loading={saving}
        />
      </div>
    </form>
  );
}
