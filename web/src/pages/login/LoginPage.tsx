import { Button, Callout, Card, FormGroup, H2, InputGroup, Intent } from '@blueprintjs/core';
import { REMEMBER_DEVICE_HEADER, routes } from '@mrn/contracts';
import { type FormEvent, useRef, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { useApiMutation } from '../../api/hooks.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { readDeviceToken } from '../../auth/remember-device.ts';
import { PATHS } from '../../routing/paths.ts';
import { preloadRoute } from '../../routing/preload.ts';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { type LoginValues, validateLogin } from './login-validation.ts';

type Touched = Record<keyof LoginValues, boolean>;

/** /login and /gateway (core spec §2, §5). */
export function LoginPage() {
  const { state, signIn } = useAuth();
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [touched, setTouched] = useState<Touched>({ email: false, password: false });
  // Set once this page signs the user in: post-login routing is then on its way.
  const signedInHere = useRef(false);
  const login = useApiMutation(routes.login, {
    onSuccess: (answer) => {
      signedInHere.current = true;
      signIn(answer.data);
    },
    // The failure shows once, in the form's callout (a toast as well said it twice).
  });
  useDocumentTitle('Sign in');

  if (state.status === 'restoring') return <PageSpinner label="Signing in" />;
  if (state.status === 'signed-in') {
    if (signedInHere.current) return <PageSpinner label="Signing in" />;
    // Already signed in: the dashboard's guard sends the user on to any sign-in step still pending.
    return <Navigate to={PATHS.dashboard} replace />;
  }

  const errors = validateLogin(values);
  const isValid = Object.keys(errors).length === 0;
  const shownError = (field: keyof LoginValues) => (touched[field] ? errors[field] : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ email: true, password: true });
    if (!isValid || login.isPending) return;
    // A new attempt replaces the previous attempt's error (core spec §4).
    const email = values.email.trim();
    // A device remembered at the MFA step lets the server skip that step (DESIGN §5).
    const deviceToken = readDeviceToken(email);
    // Most sign-ins end on the dashboard: its page is fetched while the password is checked.
    preloadRoute(PATHS.dashboard);
    login.mutate({
      body: { auth: { email, password: values.password } },
      headers: deviceToken ? { [REMEMBER_DEVICE_HEADER]: deviceToken } : undefined,
    });
  };

  const field = (name: keyof LoginValues) => ({
    value: values[name],
    onValueChange: (value: string) => setValues((previous) => ({ ...previous, [name]: value })),
    onBlur: () => setTouched((previous) => ({ ...previous, [name]: true })),
    intent: shownError(name) ? Intent.DANGER : Intent.NONE,
    disabled: login.isPending,
    size: 'large' as const,
  });

  return (
    <Card className="mrn-login-card" elevation={2}>
      <H2>Sign in</H2>
      {login.error && (
        <Callout intent={Intent.DANGER} icon="error" className="mrn-form-error" role="alert">
          {login.error.message}
        </Callout>
      )}
      <form onSubmit={submit} noValidate>
        <FormGroup
          label="Email"
          labelFor="login-email"
          helperText={shownError('email')}
          intent={shownError('email') ? Intent.DANGER : Intent.NONE}
        >
          <InputGroup
            id="login-email"
            name="email"
            type="email"
            autoComplete="username"
            autoFocus
            leftIcon="envelope"
            {...field('email')}
          />
        </FormGroup>
        <FormGroup
          label="Password"
          labelFor="login-password"
          helperText={shownError('password')}
          intent={shownError('password') ? Intent.DANGER : Intent.NONE}
        >
          <InputGroup
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            leftIcon="lock"
            {...field('password')}
          />
        </FormGroup>
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          size="large"
          fill
          text="Sign in"
          disabled={!isValid}
          loading={login.isPending}
        />
      </form>
      <p className="mrn-login-links">
        <Link to={PATHS.forgotPassword}>Forgot your password?</Link>
      </p>
    </Card>
  );
}
