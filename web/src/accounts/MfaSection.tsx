import { Alert, Button, Card, Classes, H4, Intent, Tag } from '@blueprintjs/core';
import { routes, type UserView } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiMutation } from '../api/hooks.ts';
import { invalidateAccountData } from '../api/invalidate.ts';
import { useAuth } from '../auth/auth-context.ts';
import { storeDeviceToken } from '../auth/remember-device.ts';
import { showError, showSuccess } from '../ui/toaster.ts';
import { describeUserAgent } from './user-agent.ts';

/**
 * The MFA section of the profile and member forms (accounts §2, §4): Reset MFA and Forget Device
 * (with the remembered device's ip and browser). Resetting one's own MFA ends the session.
 */
export function MfaSection({ member, self }: { member: UserView; self: boolean }) {
  const queryClient = useQueryClient();
  const { logout } = useAuth();
  const [confirming, setConfirming] = useState<'reset' | 'forget' | null>(null);
  const onError = (error: { status: number; message: string }) => {
    if (error.status !== 401) showError(error.message);
  };
  const reset = useApiMutation(routes.resetMfa, {
    onSuccess: () => {
      setConfirming(null);
      showSuccess('MFA has been reset.');
      storeDeviceToken(member.email, null);
      if (self) void logout();
      else void invalidateAccountData(queryClient);
    },
    onError,
  });
  const forget = useApiMutation(routes.forgetDevice, {
    onSuccess: () => {
      setConfirming(null);
      showSuccess('Device has been forgotten.');
      if (self) storeDeviceToken(member.email, null);
      void invalidateAccountData(queryClient);
    },
    onError,
  });
  const who = self ? 'you' : `${member.first_name} ${member.last_name}`;

  return (
    <Card elevation={1}>
      <div className="mrn-card-title-row">
        <H4>Multi-Factor Authentication</H4>
        {member.mfa_enabled ? (
          <Tag intent={Intent.SUCCESS} icon="shield" minimal>
            Enabled
          </Tag>
        ) : (
          <Tag minimal>Not enabled</Tag>
        )}
      </div>
      {!member.mfa_enabled ? (
        <p className={Classes.RUNNING_TEXT}>
          {self ? 'MFA has not been enabled.' : 'MFA has not been enabled for this member.'}
          {member.mfa_required && ' It is required, so a code will be set up at the next sign-in.'}
        </p>
      ) : (
        <div className="mrn-mfa-rows">
          <div className="mrn-mfa-row">
            <div>
              <strong>Authenticator app</strong>
              <p className={Classes.TEXT_MUTED}>
                Resetting removes the authenticator app; {who} will set it up again at the next sign-in
                {self ? ', and you are signed out now' : ''}.
              </p>
            </div>
            <Button
              icon="reset"
              intent={Intent.WARNING}
              text="Reset MFA"
              onClick={() => setConfirming('reset')}
              loading={reset.isPending}
            />
          </div>
          <div className="mrn-mfa-row">
            <div>
              <strong>Remembered device</strong>
              {member.otp_remember_device ? (
                <dl className="mrn-device">
                  <dt>IP address</dt>
                  <dd>{member.otp_ip ?? 'unknown'}</dd>
                  <dt>Device</dt>
                  <dd>
                    {describeUserAgent(member.otp_device) ?? 'Unknown browser'}
                    {member.otp_device && <div className="bp6-text-muted mrn-small">{member.otp_device}</div>}
                  </dd>
                </dl>
              ) : (
                <p className={Classes.TEXT_MUTED}>No device is remembered.</p>
              )}
            </div>
            <Button
              icon="mobile-phone"
              text="Forget Device"
              disabled={!member.otp_remember_device}
              onClick={() => setConfirming('forget')}
              loading={forget.isPending}
            />
          </div>
        </div>
      )}
      <Alert
        isOpen={confirming === 'reset'}
        intent={Intent.WARNING}
        icon="reset"
        confirmButtonText="Reset MFA"
        cancelButtonText="Cancel"
        loading={reset.isPending}
        canEscapeKeyCancel
        onCancel={() => setConfirming(null)}
        onConfirm={() => reset.mutate({ params: { id: member.resource_id } })}
      >
        <p>
          Reset multi-factor authentication for {who}?{' '}
          {self
            ? 'You will be signed out and asked to set up your authenticator app again when you next sign in.'
            : 'Every session of this member ends and a new authenticator app is set up at the next sign-in.'}
        </p>
      </Alert>
      <Alert
        isOpen={confirming === 'forget'}
        icon="mobile-phone"
        intent={Intent.PRIMARY}
        confirmButtonText="Forget Device"
        cancelButtonText="Cancel"
        loading={forget.isPending}
        canEscapeKeyCancel
        onCancel={() => setConfirming(null)}
        onConfirm={() => forget.mutate({ params: { id: member.resource_id } })}
      >
        <p>Forget the remembered device? The next sign-in on it asks for a code again.</p>
      </Alert>
    </Card>
  );
}
