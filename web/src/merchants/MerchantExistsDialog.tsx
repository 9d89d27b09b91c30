import { Button, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { merchantPath } from '../routing/paths.ts';
import { useReturnFocus } from '../ui/use-return-focus.ts';
import type { DraftNoteState } from './draft-note.ts';

export interface ExistingMerchant {
  /** The EIN as typed in the form when the duplicate was found. */
  fein: string;
  resourceId: string;
  legalName: string | null;
}

/** Opens when the EIN typed on add merchant already belongs to a merchant (core spec §4). */
export function MerchantExistsDialog({
  existing,
  isOpen,
  onClose,
  carry,
}: {
  existing: ExistingMerchant | null;
  isOpen: boolean;
  onClose: () => void;
  /** What goes along to the merchant's page (the note typed so far). */
  carry?: () => DraftNoteState | undefined;
}) {
  const navigate = useNavigate();
  const returnFocus = useReturnFocus(isOpen && existing !== null);
  return (
    <Dialog
      {...returnFocus}
      isOpen={isOpen && existing !== null}
      onClose={onClose}
      title="Merchant already exists"
      icon="info-sign"
    >
      <DialogBody>
        <p>
          A merchant with EIN/BN <strong>{existing?.fein}</strong>
          {existing?.legalName ? (
            <>
              {' '}
              (<strong>{existing.legalName}</strong>)
            </>
          ) : null}{' '}
          is already in the network, so it can't be added again.
        </p>
        <p>Would you like to add your notes to it instead?</p>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              text="Yes, I want to add notes"
              autoFocus
              onClick={() => {
                onClose();
                if (existing) navigate(merchantPath(existing.resourceId), { state: carry?.() });
              }}
            />
          </>
        }
      />
    </Dialog>
  );
}
