import { Button, Callout, Card, H2, Intent } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { isValid, validateForgotPassword } from '../../accounts/validation.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { PATHS } from '../../routing/paths.ts';
import { TextField } from '../../ui/fields.tsx';
import { showError, showSuccess } from '../../ui/toaster.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { useForm } from '../../ui/use-form.ts';

export const FORGOT_PASSWORD_SUBMITTED = 'Your forgot password request has been submitted.';

/** /forgot_password: e-mail a reset link (core §2, §5). The answer never tells whether the address exists. */
export function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const form = useForm({ email: '' });
  const errors = validateForgotPassword(form.values);
  const request = useApiMutation(routes.forgotPassword, {
    onSuccess: () => showSuccess(FORGOT_PASSWORD_SUBMITTED),
    onError: (error) => {
      if (error.status === 400) form.setServerErrors({ email: 'Email is not a valid email address' });
      showError(error.message);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.touchAll();
    if (!isValid(errors) || request.isPending) return;
    request.mutate({ body: { email: form.values.email.trim() } });
  };

  return (
    <Card className="mrn-login-card" elevation={2}>
      <H2>Forgot password</H2>
      {request.isSuccess ? (
        <Callout intent={Intent.SUCCESS} icon="envelope" role="status" title="Check your e-mail">
          <p>
            If {request.variables?.body.email} belongs to a member account, we have sent it a link to choose a
            new password. The link works once and expires after one hour.
          </p>
          <Link to={PATHS.login}>Back to sign in</Link>
        </Callout>
      ) : (
        <>
          <p className="bp6-text-muted">
            Enter the e-mail address you sign in with and we will send you a link to choose a new password.
          </p>
          <form onSubmit={submit} noValidate aria-label="Forgot password">
            <TextField
              id="forgot-email"
              label="Email"
              type="email"
              autoComplete="username"
              {...form.bindText('email', form.errorOf(errors)('email'))}
              maxLength={64}
              required
              autoFocus
              disabled={request.isPending}
            />
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              size="large"
              fill
              text="Send reset link"
              disabled={!isValid(errors)}
              loading={request.isPending}
            />
          </form>
          <p className="mrn-login-links">
            <Link to={PATHS.login}>Back to sign in</Link>
          </p>
        </>
      )}
    </Card>
  );
}
