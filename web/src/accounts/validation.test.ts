import { WEBHOOK_EVENT_TYPES } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import {
  type AccountInfoValues,
  isDomainRuleMessage,
  otpCodeError,
  validateAccountInfo,
  validateChangePassword,
  validateForgotPassword,
  validateMember,
  validatePasswordReset,
} from './validation.ts';

describe('password forms', () => {
  const good = { oldPassword: 'old-secret', newPassword: 'new-secret-1', confirmPassword: 'new-secret-1' };

  it('accepts a valid change and asks for the old password only in profile mode', () => {
    expect(validateChangePassword(good, { requireOld: true })).toEqual({});
    expect(validateChangePassword({ ...good, oldPassword: '' }, { requireOld: true })).toEqual({
      oldPassword: 'Old Password is required',
    });
    expect(validateChangePassword({ ...good, oldPassword: '' }, { requireOld: false })).toEqual({});
  });

  it('requires new and confirm, at most 64, and a matching confirmation', () => {
    expect(
      validateChangePassword(
        { oldPassword: 'x', newPassword: '', confirmPassword: '' },
        { requireOld: true },
      ),
    ).toEqual({ newPassword: 'New Password is required', confirmPassword: 'Confirm Password is required' });
    const long = 'x'.repeat(65);
    expect(
      validateChangePassword({ ...good, newPassword: long, confirmPassword: long }, { requireOld: true }),
    ).toEqual({
      newPassword: 'New Password must be at most 64 characters',
      confirmPassword: 'Confirm Password must be at most 64 characters',
    });
    expect(
      validateChangePassword({ ...good, confirmPassword: 'other-secret' }, { requireOld: true }),
    ).toEqual({
      confirmPassword: 'Confirm Password must match the new password',
    });
  });

  it('holds new passwords to the server minimum of 8 and keeps spaces', () => {
    expect(
      validateChangePassword(
        { ...good, newPassword: 'short', confirmPassword: 'short' },
        { requireOld: false },
      ).newPassword,
    ).toBe('New Password must be at least 8 characters');
    expect(
      validateChangePassword(
        { ...good, newPassword: '        ', confirmPassword: '        ' },
        { requireOld: false },
      ),
    ).toEqual({});
  });

  it('checks the reset and forgot forms', () => {
    expect(
      validatePasswordReset({
        email: 'a@b.example',
        newPassword: 'new-secret-1',
        confirmPassword: 'new-secret-1',
      }),
    ).toEqual({});
    expect(
      validatePasswordReset({ email: 'nope', newPassword: 'new-secret-1', confirmPassword: 'x' }),
    ).toEqual({
      email: 'Email is not a valid email address',
      confirmPassword: 'Confirm Password must match the new password',
    });
    expect(validateForgotPassword({ email: '' })).toEqual({ email: 'Email is required' });
    expect(validateForgotPassword({ email: `${'a'.repeat(60)}@b.example` })).toEqual({
      email: 'Email must be at most 64 characters',
    });
    expect(validateForgotPassword({ email: ' dana@summit.example ' })).toEqual({});
  });
});

describe('otpCodeError', () => {
  it('wants exactly six digits', () => {
    expect(otpCodeError('123456')).toBeUndefined();
    expect(otpCodeError('123 456')).toBeUndefined();
    expect(otpCodeError('12345')).toBe('Code must be 6 digits');
    expect(otpCodeError('1234567')).toBe('Code must be 6 digits');
    expect(otpCodeError('12345a')).toBe('Code must be 6 digits');
  });
});

describe('validateAccountInfo', () => {
  const base: AccountInfoValues = {
    name: 'Granite Capital',
    website: 'granite.example',
    primary_contact_email: 'ops@granite.example',
    merchant_subscription_enabled: false,
    merchant_subscription_notification_email: '',
    merchant_subscription_notification_webhook: '',
    watch_searched_merchants: false,
    watch_searched_months: 12,
    shopped_alert_threshold: 3,
    webhook_event_types: [...WEBHOOK_EVENT_TYPES],
  };

  it('requires name, website and primary contact email', () => {
    expect(validateAccountInfo(base, { subscriptionSettings: false })).toEqual({});
    expect(
      validateAccountInfo(
        { ...base, name: ' ', website: '', primary_contact_email: '' },
        { subscriptionSettings: false },
      ),
    ).toEqual({
      name: 'Funder name is required',
      website: 'Website is required',
      primary_contact_email: 'Primary Contact Email is required',
    });
  });

  it('follows the server website rule', () => {
    expect(
      validateAccountInfo(
        { ...base, website: 'https://granite.example/about' },
        { subscriptionSettings: false },
      ),
    ).toEqual({});
    expect(validateAccountInfo({ ...base, website: 'nope' }, { subscriptionSettings: false }).website).toBe(
      'Website is not a valid website address',
    );
  });

  it('checks subscription settings only where they are shown', () => {
    const bad = {
      ...base,
      merchant_subscription_enabled: true,
      merchant_subscription_notification_email: 'x',
      merchant_subscription_notification_webhook: 'ftp://hooks.example',
    };
    expect(validateAccountInfo(bad, { subscriptionSettings: false })).toEqual({});
    expect(validateAccountInfo(bad, { subscriptionSettings: true })).toEqual({
      merchant_subscription_notification_email:
        'Subscription Notification Email is not a valid email address',
      merchant_subscription_notification_webhook:
        'Subscription Notification Webhook URL must be an http(s) address',
    });
    // The server refuses a malformed webhook URL even while subscriptions are off, and so does the form.
    expect(
      validateAccountInfo(
        { ...bad, merchant_subscription_enabled: false, merchant_subscription_notification_email: '' },
        { subscriptionSettings: true },
      ),
    ).toEqual({
      merchant_subscription_notification_webhook:
        'Subscription Notification Webhook URL must be an http(s) address',
    });
  });
});

describe('members', () => {
  it('requires first name, last name and a valid e-mail address', () => {
    expect(validateMember({ first_name: 'Nina', last_name: 'Park', email: 'nina@summit.example' })).toEqual(
      {},
    );
    expect(validateMember({ first_name: '', last_name: '', email: 'nina' })).toEqual({
      first_name: 'First Name is required',
      last_name: 'Last Name is required',
      email: 'Email Address is not a valid email address',
    });
  });

  it('recognises the domain rule message', () => {
    expect(isDomainRuleMessage('Only email addresses ending in @summitcapital.example are valid.')).toBe(
      true,
    );
    expect(isDomainRuleMessage('An error occurred while attempting to add member.')).toBe(false);
  });

  it('lets the optional subscription e-mail stay empty, and checks it when given', () => {
    const base = {
      name: 'Granite',
      website: 'granite.example',
      primary_contact_email: 'ops@granite.example',
      merchant_subscription_enabled: true,
      merchant_subscription_notification_email: '',
      merchant_subscription_notification_webhook: '',
      watch_searched_merchants: false,
      watch_searched_months: 12,
      shopped_alert_threshold: 3,
      webhook_event_types: [...WEBHOOK_EVENT_TYPES],
    };
    expect(validateAccountInfo(base, { subscriptionSettings: true })).toEqual({});
    expect(
      validateAccountInfo(
        { ...base, merchant_subscription_notification_email: 'nope' },
        { subscriptionSettings: true },
      ),
    ).toEqual({
      merchant_subscription_notification_email:
        'Subscription Notification Email is not a valid email address',
    });
  });

  it('checks the months of "watch merchants we search" with the server rule, naming the field', () => {
    const base = {
      name: 'Granite',
      website: 'granite.example',
      primary_contact_email: 'ops@granite.example',
      merchant_subscription_enabled: true,
      merchant_subscription_notification_email: '',
      merchant_subscription_notification_webhook: '',
      watch_searched_merchants: true,
      watch_searched_months: 24,
      shopped_alert_threshold: 3,
      webhook_event_types: [...WEBHOOK_EVENT_TYPES],
    };
    expect(validateAccountInfo(base, { subscriptionSettings: true })).toEqual({});
    expect(
      validateAccountInfo({ ...base, watch_searched_months: 25 }, { subscriptionSettings: true }),
    ).toEqual({
      watch_searched_months: 'Watch searched merchants for must be between 1 and 24 months',
    });
  });

  it('checks the being-shopped threshold and the webhook event types with the server rules', () => {
    const base = {
      name: 'Granite',
      website: 'granite.example',
      primary_contact_email: 'ops@granite.example',
      merchant_subscription_enabled: true,
      merchant_subscription_notification_email: '',
      merchant_subscription_notification_webhook: 'https://granite.example/hooks',
      watch_searched_merchants: false,
      watch_searched_months: 12,
      shopped_alert_threshold: 20 as number | null,
      webhook_event_types: ['merchant.shopped' as const],
    };
    const check = (values: typeof base) => validateAccountInfo(values, { subscriptionSettings: true });
    expect(check(base)).toEqual({});
    expect(check({ ...base, shopped_alert_threshold: null })).toEqual({});
    expect(check({ ...base, shopped_alert_threshold: 21 })).toEqual({
      shopped_alert_threshold: 'Being shopped: other funders in 7 days must be between 1 and 20 funders',
    });
    expect(check({ ...base, shopped_alert_threshold: 0 })).toEqual({
      shopped_alert_threshold: 'Being shopped: other funders in 7 days must be between 1 and 20 funders',
    });
    expect(check({ ...base, webhook_event_types: [] })).toEqual({
      webhook_event_types:
        'Event types the webhook receives must name at least one event type (remove the webhook address to receive none)',
    });
  });
});
