import { Checkbox, FormGroup, HTMLSelect, Intent, Switch } from '@blueprintjs/core';
import {
  SHOPPED_THRESHOLD,
  SHOPPED_WINDOW_DAYS,
  WEBHOOK_EVENT_TYPE_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '@mrn/contracts';
import { ACCOUNT_LABELS } from './validation.ts';

const THRESHOLDS = Array.from(
  { length: SHOPPED_THRESHOLD.max - SHOPPED_THRESHOLD.min + 1 },
  (_, i) => SHOPPED_THRESHOLD.min + i,
);

/**
 * "Being shopped" alerts (issue 24): a switch, and how many distinct other funders looking a watched
 * merchant up within 7 days make it one. The number stays visible while the switch is off, so an admin
 * sees what turning it on does; turning it on again offers the default.
 */
export function ShoppedAlertSettings({
  idPrefix,
  threshold,
  onChange,
  error,
  disabled,
}: {
  idPrefix: string;
  threshold: number | null;
  onChange: (threshold: number | null) => void;
  error?: string;
  disabled: boolean;
}) {
  const switchId = `${idPrefix}-shopped_alerts`;
  const selectId = `${idPrefix}-shopped_alert_threshold`;
  return (
    <div>
      <Switch
        id={switchId}
        label="Alert us when a watched merchant is being shopped"
        checked={threshold !== null}
        disabled={disabled}
        onChange={(event) => onChange(event.currentTarget.checked ? SHOPPED_THRESHOLD.default : null)}
        aria-describedby={`${switchId}-help`}
      />
      <p id={`${switchId}-help`} className="bp6-text-muted">
        When this many other funders look up a merchant you watch within {SHOPPED_WINDOW_DAYS} days, you get
        one e-mail and webhook (merchant.shopped), and another only after the count has dropped below it and
        reached it again. Your own searches never count, and no funder is named.
      </p>
      <FormGroup
        label={ACCOUNT_LABELS.shopped_alert_threshold}
        labelFor={selectId}
        intent={error ? Intent.DANGER : Intent.NONE}
        helperText={error ? <span id={`${selectId}-help`}>{error}</span> : undefined}
      >
        <HTMLSelect
          id={selectId}
          name={selectId}
          value={String(threshold ?? SHOPPED_THRESHOLD.default)}
          disabled={disabled || threshold === null}
          onChange={(event) => onChange(Number(event.currentTarget.value))}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${selectId}-help` : undefined}
        >
          {THRESHOLDS.map((n) => (
            <option key={n} value={String(n)}>
              {n === 1 ? '1 other funder' : `${n} other funders`}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
    </div>
  );
}

/** The event types the webhook endpoint receives (typed event filters); every box ticked takes new types too. */
export function WebhookEventTypeSettings({
  idPrefix,
  types,
  onChange,
  error,
  disabled,
}: {
  idPrefix: string;
  types: readonly WebhookEventType[];
  onChange: (types: WebhookEventType[]) => void;
  error?: string;
  disabled: boolean;
}) {
  const helpId = `${idPrefix}-webhook_event_types-help`;
  return (
    <fieldset className="mrn-fieldset" aria-describedby={helpId}>
      <legend>{ACCOUNT_LABELS.webhook_event_types}</legend>
      <div className="mrn-checkbox-row">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <Checkbox
            key={type}
            label={`${WEBHOOK_EVENT_TYPE_LABELS[type]} (${type})`}
            checked={types.includes(type)}
            disabled={disabled}
            onChange={(event) =>
              onChange(
                event.currentTarget.checked
                  ? WEBHOOK_EVENT_TYPES.filter((t) => t === type || types.includes(t))
                  : types.filter((t) => t !== type),
              )
            }
          />
        ))}
      </div>
      <p id={helpId} className={error ? 'bp6-text-danger' : 'bp6-text-muted'}>
        {error ??
          'E-mail always gets every type. With every box ticked, the webhook also gets event types added later.'}
      </p>
    </fieldset>
  );
}
