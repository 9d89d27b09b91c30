import { describe, expect, it } from 'vitest';
import { settingsBody, settingsValues, validateSettings } from './settings-form.ts';

describe('dashboard message form', () => {
  const values = settingsValues({
    dashboard_message_enabled: true,
    dashboard_message_severity: 'warning',
    dashboard_message_title: null,
    dashboard_message: 'Maintenance tonight',
  });

  it('needs a message and a severity; the title is optional', () => {
    expect(validateSettings(values)).toEqual({});
    expect(validateSettings({ ...values, dashboard_message: '  ', dashboard_message_severity: '' })).toEqual({
      dashboard_message: 'Message is required',
      dashboard_message_severity: 'Severity is required',
    });
    expect(
      validateSettings({ ...values, dashboard_message_title: 'x'.repeat(121) }).dashboard_message_title,
    ).toBe('Title must be at most 120 characters');
  });

  it('sends an empty title as null and trims the message', () => {
    expect(settingsBody({ ...values, dashboard_message: ' Hi ' })).toEqual({
      dashboard_message_enabled: true,
      dashboard_message_severity: 'warning',
      dashboard_message_title: null,
      dashboard_message: 'Hi',
    });
  });
});
