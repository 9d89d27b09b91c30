import { FormGroup, HTMLSelect, Intent, Switch } from '@blueprintjs/core';
import { WATCH_SEARCHED_MONTHS } from '@mrn/contracts';
import { ACCOUNT_LABELS } from './validation.ts';

const MONTHS = Array.from(
  { length: WATCH_SEARCHED_MONTHS.max - WATCH_SEARCHED_MONTHS.min + 1 },
  (_, i) => WATCH_SEARCHED_MONTHS.min + i,
);

/**
 * "Watch merchants we search" (issue 11): a switch and how many months a search keeps a merchant
 * watched. The months stay visible while the switch is off, so an admin sees what turning it on does.
 */
export function WatchSearchedSettings({
  idPrefix,
  watch,
  months,
  onWatchChange,
  onMonthsChange,
  watchError,
  monthsError,
  disabled,
}: {
  idPrefix: string;
  watch: boolean;
  months: number;
  onWatchChange: (watch: boolean) => void;
  onMonthsChange: (months: number) => void;
  watchError?: string;
  monthsError?: string;
  disabled: boolean;
}) {
  const switchId = `${idPrefix}-watch_searched_merchants`;
  const monthsId = `${idPrefix}-watch_searched_months`;
  return (
    <div>
      <Switch
        id={switchId}
        label={ACCOUNT_LABELS.watch_searched_merchants}
        checked={watch}
        disabled={disabled}
        onChange={(event) => onWatchChange(event.currentTarget.checked)}
        aria-describedby={`${switchId}-help`}
      />
      <p id={`${switchId}-help`} className={watchError ? 'bp6-text-danger' : 'bp6-text-muted'}>
        {watchError ??
          'Every merchant your team finds by its EIN, or as the only result of a name search, is added to your merchant subscriptions for the months chosen below. Searching it again extends the watch; when it ends the merchant is removed. EINs you subscribe yourself are never removed.'}
      </p>
      <FormGroup
        label={ACCOUNT_LABELS.watch_searched_months}
        labelFor={monthsId}
        intent={monthsError ? Intent.DANGER : Intent.NONE}
        helperText={monthsError ? <span id={`${monthsId}-help`}>{monthsError}</span> : undefined}
      >
        <HTMLSelect
          id={monthsId}
          name={monthsId}
          value={String(months)}
          disabled={disabled || !watch}
          onChange={(event) => onMonthsChange(Number(event.currentTarget.value))}
          aria-invalid={monthsError ? true : undefined}
          aria-describedby={monthsError ? `${monthsId}-help` : undefined}
        >
          {MONTHS.map((m) => (
            <option key={m} value={String(m)}>
              {m === 1 ? '1 month' : `${m} months`}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
    </div>
  );
}
