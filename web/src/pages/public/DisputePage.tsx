import { Button, Callout, Card, Classes, H2, Intent } from '@blueprintjs/core';
import { DISPUTE_SUBMITTED, formatEinInput, MESSAGES, routes, STATES } from '@mrn/contracts';
import { type FormEvent, useRef } from 'react';
import { Link } from 'react-router-dom';
import { isValid } from '../../accounts/validation.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { idempotencyKeys } from '../../api/idempotency.ts';
import { serverFieldErrors } from '../../merchants/server-fields.ts';
import { PATHS } from '../../routing/paths.ts';
import { SelectField, TextAreaField, TextField } from '../../ui/fields.tsx';
import { showError } from '../../ui/toaster.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { useForm } from '../../ui/use-form.ts';
import {
  DISPUTE_LABELS,
  DISPUTE_MAX,
  type DisputeValues,
  disputeBody,
  emptyDispute,
  validateDispute,
} from './dispute-form.ts';

const DISPUTE_FAILED = MESSAGES.fallback('create dispute');

/** /dispute: the public Merchant Dispute form for business owners (core §2, §5, §8). */
export function DisputePage() {
  useDocumentTitle('Merchant Dispute');
  const form = useForm<DisputeValues>(emptyDispute);
  const errors = validateDispute(form.values);
  const errorOf = form.errorOf(errors);
  const keyFor = useRef(idempotencyKeys()).current;
  const submitDispute = useApiMutation(routes.createDispute, {
    onError: (error) => {
      if (error.status === 400) {
        form.setServerErrors(serverFieldErrors(error.body, 'dispute', DISPUTE_LABELS));
        showError(error.message);
      } else showError(DISPUTE_FAILED);
    },
  });
  const saving = submitDispute.isPending;

  if (submitDispute.isSuccess)
    return (
      <div className="mrn-page mrn-narrow-page">
        <header className="mrn-page-header">
          <H2>Merchant Dispute</H2>
        </header>
        <Callout intent={Intent.SUCCESS} icon="tick-circle" title="Thank you" role="status">
          <p>{DISPUTE_SUBMITTED}</p>
          <p className={Classes.TEXT_MUTED}>
            Reference: {submitDispute.data.data.data.resource_id}. Read how we handle it in the{' '}
            <Link to={PATHS.disputeProcess}>dispute process</Link>.
          </p>
        </Callout>
      </div>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.touchAll();
    if (!isValid(errors) || saving) return;
    const body = { dispute: disputeBody(form.values) };
    submitDispute.mutate({ body, headers: { 'Idempotency-Key': keyFor(body) } });
  };
  const text = (name: Exclude<keyof DisputeValues, 'fein' | 'state' | 'reason'>, required = true) => ({
    id: `dispute-${name}`,
    label: DISPUTE_LABELS[name],
    ...form.bindText(name, errorOf(name)),
    required,
    maxLength: DISPUTE_MAX[name],
    disabled: saving,
  });

  return (
    <div className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Merchant Dispute</H2>
        <p className={Classes.TEXT_MUTED}>
          If you own or represent a business and believe a record about it is inaccurate, outdated or should
          be removed, tell us here. No account is needed. See the{' '}
          <Link to={PATHS.disputeProcess}>dispute process</Link> for what happens next.
        </p>
      </header>
      <Card elevation={1}>
        <form onSubmit={submit} noValidate aria-label="Merchant dispute">
          <div className="mrn-form-grid">
            <TextField
              id="dispute-fein"
              label={DISPUTE_LABELS.fein}
              value={form.values.fein}
              onValueChange={(value) => form.setField('fein', formatEinInput(value))}
              onBlur={() => form.touch('fein')}
              error={errorOf('fein')}
              helperText="The business's federal employer identification number"
              required
              // No maxLength: a pasted EIN with separators is normalised by the formatter instead.
              inputMode="numeric"
              placeholder="12-3456789"
              autoComplete="off"
              disabled={saving}
              autoFocus
            />
            <TextField {...text('legal_name')} autoComplete="organization" />
            <TextField {...text('dba', false)} helperText="Optional: the name the business trades under" />
            <TextField {...text('first_name')} autoComplete="given-name" />
            <TextField {...text('last_name')} autoComplete="family-name" />
            <TextField {...text('email')} type="email" autoComplete="email" />
            <TextField {...text('city')} autoComplete="address-level2" />
            <SelectField
              id="dispute-state"
              label={DISPUTE_LABELS.state}
              placeholder="Choose a state"
              options={STATES}
              value={form.values.state}
              onValueChange={(value) => form.setField('state', value)}
              onBlur={() => form.touch('state')}
              error={errorOf('state')}
              required
              disabled={saving}
            />
          </div>
          <TextAreaField
            id="dispute-reason"
            label={DISPUTE_LABELS.reason}
            value={form.values.reason}
            onValueChange={(value) => form.setField('reason', value)}
            onBlur={() => form.touch('reason')}
            error={errorOf('reason')}
            helperText="Which record, what is wrong with it, and anything that supports your request."
            required
            maxLength={DISPUTE_MAX.reason}
            rows={5}
            disabled={saving}
          />
          <div className="mrn-form-actions">
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              icon="send-message"
              text="Submit Dispute"
              disabled={!isValid(errors)}
              loading={saving}
            />
          </div>
        </form>
      </Card>
    </div>
  );
}
