import { Callout, Card, Classes, H2, Intent, Spinner, SpinnerSize } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useEffect, useRef, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { useApiMutation, useApiQuery } from '../../api/hooks.ts';
import { storeToken } from '../../api/token-store.ts';
import { notifyUnauthorized } from '../../api/unauthorized.ts';
import { useAuth, useSignedInUser } from '../../auth/auth-context.ts';
import { pendingSessionStep } from '../../auth/post-login-route.ts';
import { storeDeviceToken } from '../../auth/remember-device.ts';
import { PATHS } from '../../routing/paths.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import {
  BRIEF_ERROR_TOAST_MS,
  dismissToast,
  showError,
  showSuccess,
  type ToastKey,
} from '../../ui/toaster.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { OtpCodeForm } from './OtpCodeForm.tsx';
import { isLostSession } from './session-step.ts';

/** Secret groups of four, easier to type into an authenticator app by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

function QrCode({ url }: { url: string }) {
  const [image, setImage] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then(({ toDataURL }) => toDataURL(url, { margin: 1, width: 208, errorCorrectionLevel: 'M' }))
      .then((data) => live && setImage(data))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [url]);
  if (failed) return null;
  return (
    <div className="mrn-qr">
      {image ? (
        <img src={image} width={208} height={208} alt="QR code to scan with your authenticator app" />
      ) : (
        <Spinner size={SpinnerSize.STANDARD} aria-label="Drawing the QR code" />
      )}
    </div>
  );
}

/** /mfa_registration: scan the QR code, enter a 6-digit code, Confirm and Activate (core §2, §4). */
export function MfaRegistrationPage() {
  const user = useSignedInUser();
  const { state, continueAfterSignIn } = useAuth();
  const done = useRef(false);
  const failureToast = useRef<ToastKey | null>(null);
  useDocumentTitle('Set up two-factor authentication');
  const pending = state.status === 'signed-in' ? pendingSessionStep(user, state.bypassMfa) : null;
  const needed = pending === PATHS.mfaRegistration;

  // One secret per visit: the QR code and the registration must use the same one.
  const otp = useApiQuery(routes.otpNew, undefined, {
    enabled: needed,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
    select: (answer) => answer.data,
  });
  const register = useApiMutation(routes.otpRegister, {
    onSuccess: (answer) => {
      done.current = true;
      if (failureToast.current) dismissToast(failureToast.current);
      storeToken(answer.data.jwt);
      if (answer.data.remember_token) storeDeviceToken(answer.data.user.email, answer.data.remember_token);
      showSuccess('Two-factor authentication is now active.');
      continueAfterSignIn(answer.data.user);
    },
    onError: (error) => {
      if (isLostSession(error)) {
        notifyUnauthorized();
        return;
      }
      failureToast.current = showError(error.message, { timeoutMs: BRIEF_ERROR_TOAST_MS });
    },
  });

  if (!needed && !done.current) return <Navigate to={pending ?? PATHS.dashboard} replace />;

  return (
    <div className="mrn-session-step">
      <Card elevation={2} className="mrn-session-card">
        <H2>Set up two-factor authentication</H2>
        <p className={Classes.RUNNING_TEXT}>
          Your account requires a one-time code at sign-in. Scan the QR code with an authenticator app (Google
          Authenticator, Microsoft Authenticator, 1Password, Authy…), then enter the 6-digit code it shows.
        </p>
        {otp.isPending && <Spinner size={SpinnerSize.STANDARD} aria-label="Preparing your code" />}
        {otp.isError && (
          <Callout intent={Intent.DANGER} icon="error" role="alert" className="mrn-callout-gap">
            Unable to get URL.
          </Callout>
        )}
        {otp.data && (
          <>
            <QrCode url={otp.data.otp_url} />
            <div className="mrn-otp-secret">
              <span className={Classes.TEXT_MUTED}>Can't scan it? Enter this key in the app:</span>
              <span className="mrn-otp-secret-value">
                <code>{grouped(otp.data.otp_secret)}</code>
                <CopyButton text={otp.data.otp_secret} label="Copy the key" />
              </span>
            </div>
            <OtpCodeForm
              idPrefix="mfa-registration"
              submitText="Confirm and Activate"
              saving={register.isPending}
              onSubmit={({ code, rememberDevice }) =>
                register.mutate({
                  body: { otp: { otp_secret: otp.data.otp_secret, code, remember_device: rememberDevice } },
                  ownUnauthorized: true,
                })
              }
            />
          </>
        )}
      </Card>
    </div>
  );
}
