import { Alert, Button, Card, Classes, H4, Intent } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { apiQueryKey, useApiMutation, useApiQuery } from '../api/hooks.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { PATHS } from '../routing/paths.ts';
import { showError, showSuccess } from '../ui/toaster.ts';

const MASK = 'whsec_••••••••••••••••••••••••';

/**
 * The account's webhook signing secret (Standard Webhooks `whsec_…`): hidden until asked for, copyable,
 * and rotated behind a confirmation (the old secret keeps signing for 24 hours).
 */
export function SigningSecretCard() {
  const user = useSignedInUser();
  const accountId = user.account_resource_id;
  const queryClient = useQueryClient();
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const account = useApiQuery(routes.getAccount, { params: { id: accountId } });
  const secret = account.data?.data.merchant_subscription_webhook_secret;
  const rotate = useApiMutation(routes.rotateWebhookSigningSecret, {
    onSuccess: (answer) => {
      queryClient.setQueryData(apiQueryKey(routes.getAccount, { params: { id: accountId } }), (old) =>
        old && typeof old === 'object' && 'data' in old
          ? {
              ...old,
              data: {
                ...(old as { data: object }).data,
                merchant_subscription_webhook_secret: answer.data.merchant_subscription_webhook_secret,
              },
            }
          : old,
      );
      setConfirming(false);
      setShown(true);
      showSuccess(answer.message);
    },
    onError: (error) => {
      setConfirming(false);
      showError(error.message);
    },
  });
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      showSuccess('Signing secret copied.');
    } catch {
      showError('Could not copy. Select the secret and copy it instead.');
    }
  };

  return (
    <Card elevation={1} className="mrn-secret-card">
      <H4>Signing secret</H4>
      <p className={Classes.TEXT_MUTED}>
        Every webhook carries a <code>webhook-signature</code> made with this secret. Check it before you
        trust a request: the <Link to={PATHS.developers}>Developer Guide</Link> shows how.
      </p>
      <div className="mrn-secret-row">
        <code className="mrn-secret" data-testid="signing-secret">
          {account.isPending ? 'Loading…' : shown && secret ? secret : MASK}
        </code>
        <Button
          variant="outlined"
          text={shown ? 'Hide' : 'Reveal'}
          icon={shown ? 'eye-off' : 'eye-open'}
          disabled={!secret}
          onClick={() => setShown(!shown)}
        />
        <Button variant="outlined" text="Copy" icon="duplicate" disabled={!secret} onClick={copy} />
        <Button
          variant="outlined"
          intent={Intent.WARNING}
          text="Rotate secret"
          icon="refresh"
          disabled={!secret}
          loading={rotate.isPending}
          onClick={() => setConfirming(true)}
        />
      </div>
      <Alert
        isOpen={confirming}
        intent={Intent.WARNING}
        icon="refresh"
        confirmButtonText="Rotate secret"
        cancelButtonText="Cancel"
        loading={rotate.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => rotate.mutate({ params: { id: accountId } })}
      >
        <p>
          A new secret will sign your webhooks. The current one keeps signing beside it for 24 hours: update
          your receiver within that time.
        </p>
      </Alert>
    </Card>
  );
}
