import { Button, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { isEinSearch } from '@mrn/contracts/domain/ein';
import { useNavigate } from 'react-router-dom';
import { newMerchantPath } from '../routing/paths.ts';

/** Opens when a search finds nothing (core spec §2); its button starts adding the merchant. */
export function NoMerchantsFoundDialog({
  term,
  onClose,
  onAdd,
}: {
  term: string | null;
  onClose: () => void;
  /** Called after the button navigated to /merchants/new (closes the phone drawer). */
  onAdd?: () => void;
}) {
  const navigate = useNavigate();
  const einTerm = term !== null && isEinSearch(term);
  const addMerchant = () => {
    onClose();
    navigate(newMerchantPath(term ?? undefined));
    onAdd?.();
  };

  return (
    <Dialog isOpen={term !== null} onClose={onClose} title="No Merchants Found" icon="search">
      <DialogBody>
        <p>
          No merchant matches <strong>{term}</strong>.
        </p>
        <p>
          {einTerm
            ? 'Would you like to add a merchant with this EIN/BN and report your experience with it?'
            : 'Check the spelling or search by the full EIN/BN. Would you like to add the merchant?'}
        </p>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              text="Yes, I want to add a merchant"
              onClick={addMerchant}
              autoFocus
            />
          </>
        }
      />
    </Dialog>
  );
}
