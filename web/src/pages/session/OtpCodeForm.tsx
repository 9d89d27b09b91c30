import { Button, Callout, Checkbox, Intent } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { otpCodeError } from '../../accounts/validation.ts';
import { TextField } from '../../ui/fields.tsx';

export interface OtpSubmission {
  code: string;
  rememberDevice: boolean;
}

/** The 6-digit code, "Remember this device" and the submit button of both MFA screens (core §2, §5). */
export function OtpCodeForm({
  idPrefix,
  submitText,
  saving,
  disabled,
  onSubmit,
}: {
  idPrefix: string;
  submitText: string;
  saving: boolean;
  disabled?: boolean;
  onSubmit: (submission: OtpSubmission) => void;
}) {
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const [touched, setTouched] = useState(false);
  const error = otpCodeError(code);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (error || saving || disabled) return;
    onSubmit({ code: code.replace(/\s/g, ''), rememberDevice: remember });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={submitText}>
      <TextField
        id={`${idPrefix}-code`}
        label="Code"
        value={code}
        onValueChange={(value) => setCode(value.replace(/[^\d\s]/g, '').slice(0, 7))}
        onBlur={() => setTouched(code.length > 0 || touched)}
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="123456"
        maxLength={7}
        disabled={saving || disabled}
        helperText="The 6-digit code your authenticator app shows now."
        autoFocus
      />
      {touched && error && (
        <Callout intent={Intent.DANGER} icon="error" role="alert" className="mrn-callout-gap" compact>
          {error}
        </Callout>
      )}
      <Checkbox
        label="Remember this device"
        checked={remember}
        onChange={(event) => setRemember(event.currentTarget.checked)}
        disabled={saving || disabled}
      />
      <p className="bp6-text-muted bp6-text-small mrn-otp-remember-hint">
        For 30 days this browser signs you in without a code. Don't tick it on a shared computer.
      </p>
      <Button
        type="submit"
        intent={Intent.PRIMARY}
        size="large"
        fill
        text={submitText}
        disabled={!!error || disabled}
        loading={saving}
      />
    </form>
  );
}
