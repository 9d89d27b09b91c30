import { Button, Callout, Card, H2, Intent } from '@blueprintjs/core';
import { INVITATION_LINK_PARAM, routes } from '@mrn/contracts';
import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  isValid,
  PASSWORD_LABELS,
  type PasswordResetValues,
  validatePasswordReset,
} from '../../accounts/validation.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { serverFieldErrors } from '../../merchants/server-fields.ts';
import { PATHS } from '../../routing/paths.ts';
import { TextField } from '../../ui/fields.tsx';
import { showError, showSuccess } from '../../ui/toaster.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { useForm } from '../../ui/use-form.ts';

export const PASSWORD_UPDATED = 'Password has been updated.';

/**
 * /password_reset?reset_token=…&email=…: the link of a reset or invitation e-mail (core §2, §5). An
 * invitation's link also carries `invitation=1`: a new member sets their first password, so the page
 * says so instead of offering to reset one they never had.
 */
export function PasswordResetPage() {
  const [params] = useSearchParams();
  const invitation = params.get(INVITATION_LINK_PARAM) === '1';
  const title = invitation ? 'Set your password' : 'Reset password';
  useDocumentTitle(title);
  const navigate = useNavigate();
  const token = params.get('reset_token') ?? '';
  const form = useForm<PasswordResetValues>(() => ({
    email: params.get('email') ?? '',
    newPassword: '',
    confirmPassword: '',
  }));
  const errors = validatePasswordReset(form.values);
  const errorOf = form.errorOf(errors);
  const reset = useApiMutation(routes.passwordReset, {
    onSuccess: () => {
      showSuccess(PASSWORD_UPDATED);
      navigate(PATHS.login, { replace: true });
    },
    onError: (error) => {
      if (error.status === 400) {
        const fields = serverFieldErrors(error.body, '', {
          email: 'Email',
          new_password: PASSWORD_LABELS.newPassword,
          confirm_password: PASSWORD_LABELS.confirmPassword,
        });
        form.setServerErrors({
          email: fields.email,
          newPassword: fields.new_password,
          confirmPassword: fields.confirm_password,
        });
      }
      showError(error.message);
    },
  });

  if (!token)
    return (
      <Card className="mrn-login-card" elevation={2}>
        <H2>{title}</H2>
        <Callout intent={Intent.WARNING} icon="warning-sign" title="This link is incomplete">
          <p>Open the link from your e-mail again, or ask for a new one.</p>
          <Link to={PATHS.forgotPassword}>Request a new link</Link>
        </Callout>
      </Card>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.touchAll();
    if (!isValid(errors) || reset.isPending) return;
    reset.mutate({
      body: {
        email: form.values.email.trim(),
        reset_token: token,
        new_password: form.values.newPassword,
        confirm_password: form.values.confirmPassword,
      },
    });
  };
  const field = (name: keyof PasswordResetValues) => ({
    id: `reset-${name}`,
    ...form.bindText(name, errorOf(name)),
    required: true,
    maxLength: 64,
    disabled: reset.isPending,
  });

  return (
    <Card className="mrn-login-card" elevation={2}>
      <H2>{title}</H2>
      <p className="bp6-text-muted">
        {invitation
          ? 'Welcome! Choose the password you will sign in with: 8 to 64 characters.'
          : "Choose a new password of 8 to 64 characters. Your last five can't be reused."}
      </p>
      <form onSubmit={submit} noValidate aria-label={title}>
        <TextField {...field('email')} label="Email" type="email" autoComplete="username" />
        <TextField
          {...field('newPassword')}
          label={PASSWORD_LABELS.newPassword}
          type="password"
          autoComplete="new-password"
          autoFocus
        />
        <TextField
          {...field('confirmPassword')}
          label={PASSWORD_LABELS.confirmPassword}
          type="password"
          autoComplete="new-password"
        />
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          size="large"
          fill
          text={invitation ? 'Set password' : 'Update password'}
          disabled={!isValid(errors)}
          loading={reset.isPending}
        />
      </form>
      <p className="mrn-login-links">
        <Link to={PATHS.forgotPassword}>Request a new link</Link>
      </p>
    </Card>
  );
}
