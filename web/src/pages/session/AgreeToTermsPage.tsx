import { Button, Card, Checkbox, H2, Intent } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { call } from '../../api/client.ts';
import { useAuth, useSignedInUser } from '../../auth/auth-context.ts';
import { pendingSessionStep } from '../../auth/post-login-route.ts';
import { PATHS } from '../../routing/paths.ts';
import { showError, showSuccess } from '../../ui/toaster.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { TermsOfUseText } from '../public/legal-text.tsx';

/** /agree_to_terms: the terms with a required agreement checkbox (core §4, §5). */
export function AgreeToTermsPage() {
  const user = useSignedInUser();
  const { state, continueAfterSignIn } = useAuth();
  const [agreed, setAgreed] = useState(false);
  const [touched, setTouched] = useState(false);
  const done = useRef(false);
  useDocumentTitle('Terms of Use');

  const agree = useMutation({
    mutationFn: async () => {
      await call(routes.agreeToTerms, { params: { id: user.resource_id } });
      // The session user, now with its agreement; fall back to marking it here if the refresh fails.
      const fresh = await call(routes.dashboardUpdates, { body: { resource_id: user.resource_id } })
        .then((answer) => answer.data.user)
        .catch(() => user);
      return fresh.agreed_to_terms ? fresh : { ...fresh, agreed_to_terms: new Date().toISOString() };
    },
    onSuccess: (fresh) => {
      done.current = true;
      showSuccess('Thank you for agreeing to the Terms of Use.');
      continueAfterSignIn(fresh);
    },
    onError: (error) => showError(error.message),
  });

  const pending = state.status === 'signed-in' ? pendingSessionStep(user, state.bypassMfa) : null;
  if (pending !== PATHS.agreeToTerms && !done.current)
    return <Navigate to={pending ?? PATHS.dashboard} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (agreed && !agree.isPending) agree.mutate();
  };

  return (
    <div className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Terms of Use</H2>
        <p className="bp6-text-muted">Please read and agree to the terms of use to continue.</p>
      </header>
      <Card elevation={1} className="mrn-terms-scroll" tabIndex={0} aria-label="Terms of Use text">
        <TermsOfUseText />
      </Card>
      <Card elevation={1}>
        <form onSubmit={submit} noValidate aria-label="Agree to the terms of use">
          <Checkbox
            checked={agreed}
            onChange={(event) => setAgreed(event.currentTarget.checked)}
            onBlur={() => setTouched(true)}
            required
            disabled={agree.isPending}
            labelElement={
              <>
                I have read and agree to the Terms of Use <span className="bp6-text-muted">(required)</span>
              </>
            }
          />
          {touched && !agreed && (
            <p className="bp6-text-small mrn-error-text" role="alert">
              You must agree to the terms of use to continue.
            </p>
          )}
          <div className="mrn-form-actions">
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              text="Agree and Continue"
              disabled={!agreed}
              loading={agree.isPending}
            />
          </div>
        </form>
      </Card>
    </div>
  );
}
