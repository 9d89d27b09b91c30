import { Button, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { isEinSearch, normaliseEin, routes } from '@mrn/contracts';
import { useNavigate } from 'react-router-dom';
import { useApiQuery } from '../api/hooks.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { hasProFeatures } from '../auth/permissions.ts';
import { newMerchantPath } from '../routing/paths.ts';
import { useReturnFocus } from '../ui/use-return-focus.ts';

/** "Searched 3 times on the network": how often funders looked this EIN up, though nobody reported it. */
export const searchCountText = (total: number): string =>
  `This EIN/BN has been searched ${total} ${total === 1 ? 'time' : 'times'} on the network.`;

/** PRO only (core spec §6): the search count of an EIN nobody has reported. */
function EinSearchCount({ fein }: { fein: string }) {
  const counts = useApiQuery(
    routes.searchCounts,
    { query: { search: fein } },
    { select: (a) => a.data.total },
  );
  if (counts.isPending) return <p className="bp6-text-muted">Looking up how often it was searched…</p>;
  if (counts.isError) return null;
  return <p data-testid="ein-search-count">{searchCountText(counts.data)}</p>;
}

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
  const user = useSignedInUser();
  const einTerm = term !== null && isEinSearch(term);
  const addMerchant = () => {
    onClose();
    navigate(newMerchantPath(term ?? undefined));
    onAdd?.();
  };

  const returnFocus = useReturnFocus(term !== null);
  return (
    <Dialog
      {...returnFocus}
      isOpen={term !== null}
      onClose={onClose}
      title="No Merchants Found"
      icon="search"
    >
      <DialogBody>
        <p>
          No merchant matches <strong>{term}</strong>.
        </p>
        {einTerm && hasProFeatures(user) && <EinSearchCount fein={normaliseEin(term)} />}
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
