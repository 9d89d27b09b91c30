import { type AppSettings, type MessageSeverity, UpdateAppSettingsBody } from '@mrn/contracts';
import { type FieldErrors, schemaErrors } from '../../forms/validate.ts';

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

/** Dashboard message (accounts §5) with the server's schema: text and type required, title optional. */
export function validateSettings(values: SettingsValues): FieldErrors<keyof SettingsValues> {
  return schemaErrors(
    UpdateAppSettingsBody,
    { app_settings: settingsBody(values) },
    SETTINGS_LABELS,
    (path) =>
      path.startsWith('app_settings.')
        ? (path.slice('app_settings.'.length) as keyof SettingsValues)
        : undefined,
  );
}

export const settingsBody = (values: SettingsValues) => ({
  dashboard_message_enabled: values.dashboard_message_enabled,
  dashboard_message_severity: (values.dashboard_message_severity || undefined) as MessageSeverity,
  dashboard_message_title: values.dashboard_message_title.trim() || null,
  dashboard_message: values.dashboard_message.trim(),
});
