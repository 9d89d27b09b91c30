import {
  type AppSettings,
  MESSAGE_SEVERITIES,
  type MessageSeverity,
} from '@mrn/contracts/routes/app-settings';
import { type Errors, textError } from '../../accounts/validation.ts';

export interface SettingsValues {
  dashboard_message_enabled: boolean;
  dashboard_message_severity: MessageSeverity | '';
  dashboard_message_title: string;
  dashboard_message: string;
}

export const SETTINGS_LABELS = {
  dashboard_message_enabled: 'Show the message on the dashboard',
  dashboard_message_severity: 'Severity',
  dashboard_message_title: 'Title',
  dashboard_message: 'Message',
} as const;

export const TITLE_MAX = 120;
export const MESSAGE_MAX = 1000;

export const settingsValues = (settings: AppSettings): SettingsValues => ({
  dashboard_message_enabled: settings.dashboard_message_enabled,
  dashboard_message_severity: settings.dashboard_message_severity,
  dashboard_message_title: settings.dashboard_message_title ?? '',
  dashboard_message: settings.dashboard_message ?? '',
});

const isSeverity = (value: string): value is MessageSeverity =>
  (MESSAGE_SEVERITIES as readonly string[]).includes(value);

/** Dashboard message (accounts §5): text required, type required; the title is optional. */
export function validateSettings(values: SettingsValues): Errors<keyof SettingsValues> {
  const errors: Errors<keyof SettingsValues> = {};
  if (!isSeverity(values.dashboard_message_severity))
    errors.dashboard_message_severity = `${SETTINGS_LABELS.dashboard_message_severity} is required`;
  const title = textError(
    SETTINGS_LABELS.dashboard_message_title,
    values.dashboard_message_title,
    TITLE_MAX,
    false,
  );
  if (title) errors.dashboard_message_title = title;
  const message = textError(SETTINGS_LABELS.dashboard_message, values.dashboard_message, MESSAGE_MAX);
  if (message) errors.dashboard_message = message;
  return errors;
}

export const settingsBody = (values: SettingsValues) => ({
  dashboard_message_enabled: values.dashboard_message_enabled,
  dashboard_message_severity: values.dashboard_message_severity as MessageSeverity,
  dashboard_message_title: values.dashboard_message_title.trim() || null,
  dashboard_message: values.dashboard_message.trim(),
});
