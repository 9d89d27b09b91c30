import { Card, Classes, H2 } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useRef } from 'react';
import { Navigate } from 'react-router-dom';
import { useApiMutation } from '../../api/hooks.ts';
import { storeToken } from '../../api/token-store.ts';
import { useAuth, useSignedInUser } from '../../auth/auth-context.ts';
import { pendingSessionStep } from '../../auth/post-login-route.ts';
import { storeDeviceToken } from '../../auth/remember-device.ts';
import { PATHS } from '../../routing/paths.ts';
import { BRIEF_ERROR_TOAST_MS, showError } from '../../ui/toaster.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { OtpCodeForm } from './OtpCodeForm.tsx';
import { MFA_FAILED } from './session-step.ts';

/** /mfa_verification, titled Authenticate your account (core §2); a failure goes back to /login (§4). */
export function MfaVerificationPage() {
  const user = useSignedInUser();
  const { state, continueAfterSignIn, logout } = useAuth();
  const done = useRef(false);
  useDocumentTitle('Authenticate your account');
  const pending = state.status === 'signed-in' ? pendingSessionStep(user, state.bypassMfa) : null;

  const verify = useApiMutation(routes.otpVerify, {
    onSuccess: (answer) => {
      done.current = true;
      storeToken(answer.data.jwt);
      if (answer.data.remember_token) storeDeviceToken(answer.data.user.email, answer.data.remember_token);
      continueAfterSignIn(answer.data.user);
    },
    onError: (error) => {
      showError(error.status === 401 ? MFA_FAILED : error.message, { timeoutMs: BRIEF_ERROR_TOAST_MS });
      // Core §4: a failed verification sends the user back to sign in.
      if (error.status !== 0) void logout();
    },
  });

  if (pending !== PATHS.mfaVerification && !done.current)
    return <Navigate to={pending ?? PATHS.dashboard} replace />;

  return (
    <div className="mrn-session-step">
      <Card elevation={2} className="mrn-session-card">
        <H2>Authenticate your account</H2>
        <p className={Classes.RUNNING_TEXT}>
          Enter the 6-digit code from your authenticator app to finish signing in as {user.email}.
        </p>
        <OtpCodeForm
          idPrefix="mfa-verification"
          submitText="Verify"
          saving={verify.isPending}
          onSubmit={({ code, rememberDevice }) =>
            verify.mutate({ body: { otp: { code, remember_device: rememberDevice } }, ownUnauthorized: true })
          }
        />
      </Card>
    </div>
  );
}
