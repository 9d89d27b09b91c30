import {
  Button,
  Callout,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  Intent,
  Spinner,
} from '@blueprintjs/core';
import { type PlanLevel, routes } from '@mrn/contracts';
import { useApiQuery } from '../api/hooks.ts';
import { formatDate } from '../merchants/format.ts';
import { formatCents, prorationText } from './money.ts';
import './billing.css';

export type PlanChange = 'upgrade' | 'downgrade';

export const PLAN_CHANGES: Record<PlanChange, { target: PlanLevel; title: string; done: string }> = {
  upgrade: {
    target: 'PRO',
    title: 'Upgrade to PRO',
    done: 'Your membership has been upgraded to PRO.',
  },
  downgrade: {
    target: 'BASIC',
    title: 'Downgrade to BASIC',
    done: 'Your membership has been downgraded to BASIC.',
  },
};

/**
 * Upgrade to PRO / Downgrade to BASIC, confirmed after seeing what it does to the next invoice
 * (accounts spec §4: an upgrade is charged pro rata on the next invoice, a downgrade credited).
 */
export function PlanChangeDialog({
  change,
  accountId,
  busy,
  onConfirm,
  onClose,
}: {
  change: PlanChange | null;
  accountId: string;
  busy: boolean;
  onConfirm: (change: PlanChange) => void;
  onClose: () => void;
}) {
  const spec = change ? PLAN_CHANGES[change] : null;
  return (
    <Dialog
      isOpen={change !== null}
      onClose={() => {
        if (!busy) onClose();
      }}
      title={spec?.title ?? ''}
      icon={change === 'downgrade' ? 'arrow-down' : 'arrow-up'}
    >
      {change && spec && (
        <>
          <DialogBody>
            <PlanChangePreview accountId={accountId} target={spec.target} />
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text="Cancel" onClick={onClose} disabled={busy} />
                <Button
                  intent={Intent.PRIMARY}
                  text={spec.title}
                  loading={busy}
                  onClick={() => onConfirm(change)}
                />
              </>
            }
          />
        </>
      )}
    </Dialog>
  );
}

function PlanChangePreview({ accountId, target }: { accountId: string; target: PlanLevel }) {
  const preview = useApiQuery(
    routes.previewPlanChange,
    { params: { id: accountId }, query: { plan: target } },
    // What an invoice would be now: never an older answer.
    { select: (answer) => answer.data, staleTime: 0, gcTime: 0 },
  );
  if (preview.isPending) return <Spinner aria-label="Working out the prorated amount" />;
  if (preview.isError)
    return (
      <Callout intent={Intent.WARNING} icon="warning-sign" role="alert">
        {preview.error.message} The change can still be made; the next invoice will show the prorated amount.
      </Callout>
    );
  const { proration_amount, next_invoice_amount, next_payment_date } = preview.data;
  return (
    <div role="status" aria-label="Plan change preview">
      <p>
        {target === 'PRO'
          ? 'PRO starts at once. The rest of this billing period is charged pro rata on the next invoice.'
          : 'BASIC starts at once. The unused part of PRO for this billing period is credited on the next invoice.'}
      </p>
      <p className="mrn-preview-figure">{prorationText(proration_amount)}</p>
      <dl className="mrn-preview-list">
        <dt>Next invoice</dt>
        <dd>{formatCents(next_invoice_amount)}</dd>
        {next_payment_date && (
          <>
            <dt>Charged on</dt>
            <dd>{formatDate(next_payment_date)}</dd>
          </>
        )}
      </dl>
      <p className={`${Classes.TEXT_MUTED} mrn-small`}>
        Are you sure you want to {target === 'PRO' ? 'upgrade to PRO' : 'downgrade to BASIC'}?
      </p>
    </div>
  );
}
