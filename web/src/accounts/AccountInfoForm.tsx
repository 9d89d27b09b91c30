import { Button, Checkbox, Classes, Divider, H5, Intent } from '@blueprintjs/core';
import { type AccountView, WATCH_SEARCHED_MONTHS, WEBHOOK_EVENT_TYPES } from '@mrn/contracts';
import { type FormEvent, useEffect } from 'react';
import { TextField } from '../ui/fields.tsx';
import { useForm } from '../ui/use-form.ts';
import { ShoppedAlertSettings, WebhookEventTypeSettings } from './AlertSettings.tsx';
import {
  ACCOUNT_LABELS,
  type AccountInfoValues,
  type Errors,
  isValid,
  validateAccountInfo,
} from './validation.ts';
import { WatchSearchedSettings } from './WatchSearchedSettings.tsx';

export const accountInfoValues = (account?: AccountView): AccountInfoValues => ({
  name: account?.name ?? '',
  website: account?.website ?? '',
  primary_contact_email: account?.primary_contact_email ?? '',
  merchant_subscription_enabled: account?.merchant_subscription_enabled ?? false,
  merchant_subscription_notification_email: account?.merchant_subscription_notification_email ?? '',
  merchant_subscription_notification_webhook: account?.merchant_subscription_notification_webhook ?? '',
  watch_searched_merchants: account?.watch_searched_merchants ?? false,
  watch_searched_months: account?.watch_searched_months ?? WATCH_SEARCHED_MONTHS.default,
  shopped_alert_threshold: account ? account.shopped_alert_threshold : 3,
  webhook_event_types: account?.webhook_event_types ?? [...WEBHOOK_EVENT_TYPES],
});

/** The `account` body of create and update funder: every field, so nothing is cleared by omission. */
export const accountBody = (values: AccountInfoValues) => ({
  name: values.name.trim(),
  website: values.website.trim(),
  primary_contact_email: values.primary_contact_email.trim(),
  merchant_subscription_enabled: values.merchant_subscription_enabled,
  merchant_subscription_notification_email: values.merchant_subscription_notification_email.trim() || null,
  merchant_subscription_notification_webhook:
    values.merchant_subscription_notification_webhook.trim() || null,
  watch_searched_merchants: values.watch_searched_merchants,
  watch_searched_months: values.watch_searched_months,
  shopped_alert_threshold: values.shopped_alert_threshold,
  webhook_event_types: values.webhook_event_types,
});

/**
 * Funder Info / Account Info (accounts §2): Funder name, Website, Primary Contact Email, all
 * required; for PRO accounts the Merchant Subscription Settings, whose enabled checkbox only a
 * platform administrator may change and whose webhook URL and "watch merchants we search" show only
 * when enabled.
 */
export function AccountInfoForm({
  idPrefix,
  initial,
  subscriptionSettings,
  canEnableSubscriptions,
  saving,
  serverErrors,
  onSubmit,
  autoFocus,
  readOnly = false,
}: {
  readOnly?: boolean;
  idPrefix: string;
  initial: AccountInfoValues;
  subscriptionSettings: boolean;
  canEnableSubscriptions: boolean;
  saving: boolean;
  serverErrors: Errors<keyof AccountInfoValues>;
  onSubmit: (values: AccountInfoValues) => void;
  autoFocus?: boolean;
}) {
  const form = useForm<AccountInfoValues>(initial);
  const { setServerErrors } = form;
  useEffect(() => setServerErrors(serverErrors), [serverErrors, setServerErrors]);
  const errors = validateAccountInfo(form.values, { subscriptionSettings });
  const errorOf = form.errorOf(errors);
  const enabled = form.values.merchant_subscription_enabled;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.touchAll();
    if (!isValid(errors) || saving || readOnly) return;
    onSubmit(form.values);
  };
  const text = (
    name: Exclude<
      keyof AccountInfoValues,
      | 'merchant_subscription_enabled'
      | 'watch_searched_merchants'
      | 'watch_searched_months'
      | 'shopped_alert_threshold'
      | 'webhook_event_types'
    >,
    max: number,
    required = true,
  ) => ({
    id: `${idPrefix}-${name}`,
    label: ACCOUNT_LABELS[name],
    ...form.bindText(name, errorOf(name)),
    required,
    maxLength: max,
    disabled: saving || readOnly,
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Funder details">
      <div className="mrn-form-grid">
        <TextField {...text('name', 120)} autoComplete="organization" autoFocus={autoFocus} />
        <TextField {...text('website', 200)} type="url" placeholder="example.com" autoComplete="url" />
        <TextField {...text('primary_contact_email', 64)} type="email" autoComplete="email" />
      </div>
      {subscriptionSettings && (
        <section aria-labelledby={`${idPrefix}-subscriptions`} className="mrn-form-section">
          <Divider />
          <H5 id={`${idPrefix}-subscriptions`}>Merchant Subscription Settings</H5>
          {canEnableSubscriptions ? (
            <Checkbox
              label="Enable merchant subscriptions"
              checked={enabled}
              onChange={(event) =>
                form.setField('merchant_subscription_enabled', event.currentTarget.checked)
              }
              disabled={saving}
            />
          ) : (
            <p className={Classes.TEXT_MUTED}>
              Merchant subscriptions are {enabled ? 'enabled' : 'not enabled'} for this account
              {enabled ? '.' : '; a platform administrator can enable them.'}
            </p>
          )}
          <div className="mrn-form-grid">
            <TextField
              {...text('merchant_subscription_notification_email', 64, false)}
              type="email"
              helperText="Where subscription notifications are e-mailed."
            />
            {enabled && (
              <TextField
                {...text('merchant_subscription_notification_webhook', 500, false)}
                type="url"
                placeholder="https://"
                helperText="Receives a signed POST for each subscribed merchant event."
              />
            )}
          </div>
          {enabled && (
            <WatchSearchedSettings
              idPrefix={idPrefix}
              watch={form.values.watch_searched_merchants}
              months={form.values.watch_searched_months}
              onWatchChange={(watch) => form.setField('watch_searched_merchants', watch)}
              onMonthsChange={(months) => form.setField('watch_searched_months', months)}
              watchError={errorOf('watch_searched_merchants')}
              monthsError={errorOf('watch_searched_months')}
              disabled={saving || readOnly}
            />
          )}
          {enabled && (
            <ShoppedAlertSettings
              idPrefix={idPrefix}
              threshold={form.values.shopped_alert_threshold}
              onChange={(threshold) => form.setField('shopped_alert_threshold', threshold)}
              error={errorOf('shopped_alert_threshold')}
              disabled={saving || readOnly}
            />
          )}
          {/* Shown with a webhook address, and while no type is ticked: an error is never hidden. */}
          {enabled &&
            (form.values.merchant_subscription_notification_webhook.trim() !== '' ||
              form.values.webhook_event_types.length === 0) && (
              <WebhookEventTypeSettings
                idPrefix={idPrefix}
                types={form.values.webhook_event_types}
                onChange={(types) => form.setField('webhook_event_types', types)}
                error={errorOf('webhook_event_types')}
                disabled={saving || readOnly}
              />
            )}
        </section>
      )}
      <div className="mrn-form-actions">
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          icon="floppy-disk"
          text="Save details"
          disabled={!isValid(errors) || readOnly}
          loading={saving}
        />
      </div>
    </form>
  );
}
