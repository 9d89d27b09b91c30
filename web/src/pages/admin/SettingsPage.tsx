import { Button, Callout, Card, Classes, H2, H4, Intent, Switch } from '@blueprintjs/core';
import { type AppSettings, MESSAGE_SEVERITIES, routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { isValid } from '../../accounts/validation.ts';
import { appSettingsQuery, useAppSettings } from '../../api/app-settings.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { serverFieldErrors } from '../../merchants/server-fields.ts';
import { SelectField, TextAreaField, TextField } from '../../ui/fields.tsx';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { showError, showSuccess } from '../../ui/toaster.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { useForm } from '../../ui/use-form.ts';
import { MESSAGE_INTENT } from '../dashboard/message-intent.ts';
import {
  MESSAGE_MAX,
  SETTINGS_LABELS,
  type SettingsValues,
  settingsBody,
  settingsValues,
  TITLE_MAX,
  validateSettings,
} from './settings-form.ts';

/** /settings: the app-wide dashboard message (accounts §2, §5). */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const settings = useAppSettings();
  return (
    <div className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Settings</H2>
        <p className={Classes.TEXT_MUTED}>A message shown to every member at the top of the dashboard.</p>
      </header>
      {settings.isPending && <PageSpinner label="Loading settings" />}
      {settings.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {settings.error.message}
        </Callout>
      )}
      {settings.data && <SettingsForm settings={settings.data} />}
    </div>
  );
}

function SettingsForm({ settings }: { settings: AppSettings }) {
  const queryClient = useQueryClient();
  const form = useForm<SettingsValues>(() => settingsValues(settings));
  const errors = validateSettings(form.values);
  const errorOf = form.errorOf(errors);
  const save = useApiMutation(routes.updateAppSettings, {
    onSuccess: (answer) => {
      queryClient.setQueryData(appSettingsQuery().queryKey, answer);
      showSuccess('Settings have been updated.');
    },
    onError: (error) => {
      if (error.status === 400) {
        const { dashboard_message_enabled: _enabled, ...labels } = SETTINGS_LABELS;
        form.setServerErrors(serverFieldErrors(error.body, 'app_settings', labels));
      }
      if (error.status !== 401) showError(error.message);
    },
  });
  const saving = save.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.touchAll();
    if (!isValid(errors) || saving) return;
    save.mutate({ body: { app_settings: settingsBody(form.values) } });
  };
  const severity = form.values.dashboard_message_severity;

  return (
    <>
      <Card elevation={1}>
        <H4>Dashboard message</H4>
        <form onSubmit={submit} noValidate aria-label="Dashboard message">
          <Switch
            label={SETTINGS_LABELS.dashboard_message_enabled}
            checked={form.values.dashboard_message_enabled}
            onChange={(event) => form.setField('dashboard_message_enabled', event.currentTarget.checked)}
            disabled={saving}
            size="large"
          />
          <div className="mrn-form-grid">
            <SelectField
              id="settings-severity"
              label={SETTINGS_LABELS.dashboard_message_severity}
              placeholder="Choose a severity"
              options={MESSAGE_SEVERITIES}
              value={severity}
              onValueChange={(value) =>
                form.setField(
                  'dashboard_message_severity',
                  value as SettingsValues['dashboard_message_severity'],
                )
              }
              onBlur={() => form.touch('dashboard_message_severity')}
              error={errorOf('dashboard_message_severity')}
              helperText="info is blue, warning orange, error red, success green"
              required
              disabled={saving}
            />
            <TextField
              id="settings-title"
              label={SETTINGS_LABELS.dashboard_message_title}
              {...form.bindText('dashboard_message_title', errorOf('dashboard_message_title'))}
              helperText="Optional"
              maxLength={TITLE_MAX}
              disabled={saving}
            />
          </div>
          <TextAreaField
            id="settings-message"
            label={SETTINGS_LABELS.dashboard_message}
            {...form.bindText('dashboard_message', errorOf('dashboard_message'))}
            required
            maxLength={MESSAGE_MAX}
            rows={4}
            disabled={saving}
          />
          <div className="mrn-form-actions">
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              icon="floppy-disk"
              text="Save Settings"
              disabled={!isValid(errors)}
              loading={saving}
            />
          </div>
        </form>
      </Card>
      <Card elevation={1}>
        <H4>Preview</H4>
        {form.values.dashboard_message.trim() ? (
          <>
            <Callout
              intent={severity ? MESSAGE_INTENT[severity] : Intent.NONE}
              title={form.values.dashboard_message_title.trim() || undefined}
            >
              <p className="mrn-preserve-lines">{form.values.dashboard_message.trim()}</p>
            </Callout>
            {!form.values.dashboard_message_enabled && (
              <p className={`${Classes.TEXT_MUTED} mrn-preview-note`}>
                The message is switched off: members do not see it.
              </p>
            )}
          </>
        ) : (
          <p className={Classes.TEXT_MUTED}>Write a message to preview it.</p>
        )}
      </Card>
    </>
  );
}
