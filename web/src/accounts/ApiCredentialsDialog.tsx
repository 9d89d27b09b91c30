import {
  Button,
  Callout,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  InputGroup,
  Intent,
  Spinner,
  SpinnerSize,
} from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useState } from 'react';
import { useApiMutation, useApiQuery } from '../api/hooks.ts';
import { CopyButton } from '../ui/CopyButton.tsx';
import { showError, showSuccess } from '../ui/toaster.ts';
import { useReturnFocus } from '../ui/use-return-focus.ts';

export interface IssuedCredentials {
  authentication_token: string;
  authentication_key: string;
}

export interface CredentialsTarget {
  userId: string;
  name: string;
  /** Set right after API access was granted: the only time the key is shown in full. */
  issued?: IssuedCredentials;
}

/**
 * API Credentials (accounts §2): the authentication token and key. The key is shown in full only
 * when it is issued (grant or Regenerate Key); otherwise it is masked.
 */
export function ApiCredentialsDialog({
  target,
  onClose,
}: {
  target: CredentialsTarget | null;
  onClose: () => void;
}) {
  const returnFocus = useReturnFocus(target !== null);
  return (
    <Dialog
      {...returnFocus}
      isOpen={target !== null}
      onClose={onClose}
      title={target ? `API Credentials for ${target.name}` : 'API Credentials'}
      icon="key"
      className="mrn-dialog-wide"
    >
      {target && <Credentials key={target.userId} target={target} onClose={onClose} />}
    </Dialog>
  );
}

function ValueField({
  id,
  label,
  value,
  masked,
}: {
  id: string;
  label: string;
  value: string;
  masked?: boolean;
}) {
  return (
    <FormGroup label={label} labelFor={id}>
      <InputGroup
        id={id}
        value={value}
        readOnly
        className="mrn-mono"
        onFocus={(event) => event.currentTarget.select()}
        rightElement={
          masked ? undefined : <CopyButton text={value} label={`Copy the ${label.toLowerCase()}`} />
        }
      />
    </FormGroup>
  );
}

function Credentials({ target, onClose }: { target: CredentialsTarget; onClose: () => void }) {
  const [issued, setIssued] = useState<IssuedCredentials | undefined>(target.issued);
  const stored = useApiQuery(
    routes.getApiCredentials,
    { params: { id: target.userId } },
    { enabled: !issued, staleTime: 0, select: (answer) => answer.data },
  );
  const regenerate = useApiMutation(routes.regenerateApiKey, {
    onSuccess: (answer) => {
      setIssued(answer.data);
      showSuccess('A new API key has been issued.');
    },
    onError: (error) => {
      if (error.status !== 401) showError(error.message);
    },
  });

  return (
    <>
      <DialogBody>
        {issued ? (
          <>
            <Callout intent={Intent.WARNING} icon="warning-sign" className="mrn-callout-gap">
              Copy the key now and keep it somewhere safe: it is shown only this once. If it is lost,
              regenerate it.
            </Callout>
            <ValueField id="api-token" label="Authentication Token" value={issued.authentication_token} />
            <ValueField id="api-key" label="Authentication Key" value={issued.authentication_key} />
          </>
        ) : stored.isPending ? (
          <Spinner size={SpinnerSize.STANDARD} aria-label="Loading credentials" />
        ) : stored.isError ? (
          <Callout intent={Intent.DANGER} icon="error" role="alert">
            {stored.error.message}
          </Callout>
        ) : stored.data.authentication_token ? (
          <>
            <ValueField
              id="api-token"
              label="Authentication Token"
              value={stored.data.authentication_token}
            />
            <ValueField
              id="api-key"
              label="Authentication Key"
              value={stored.data.key_hint ?? '••••••••'}
              masked
            />
            <p className={Classes.TEXT_MUTED}>
              The key was shown once when it was issued. Regenerate it to issue a new one; the old key stops
              working at once.
            </p>
          </>
        ) : (
          <p>No credentials have been issued to this member.</p>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button
              icon="refresh"
              text="Regenerate Key"
              loading={regenerate.isPending}
              onClick={() => regenerate.mutate({ params: { id: target.userId } })}
            />
            <Button intent={Intent.PRIMARY} text="Done" onClick={onClose} />
          </>
        }
      />
    </>
  );
}
