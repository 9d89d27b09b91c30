import { describe, expect, it } from 'vitest';
import { postLoginRoute, type SessionStepUser } from './post-login-route.ts';

const ready: SessionStepUser = {
  mfa_required: false,
  mfa_enabled: false,
  mfa_verified: false,
  active_membership: true,
  is_dm_admin: false,
  agreed_to_terms: '2024-01-01T00:00:00.000Z',
};

describe('postLoginRoute', () => {
  it('sends a user who must use MFA but has not set it up to MFA registration', () => {
    const user = { ...ready, mfa_required: true, active_membership: false, agreed_to_terms: null };
    expect(postLoginRoute(user, false, '/analytics')).toBe('/mfa_registration');
    expect(postLoginRoute(user, true, null)).toBe('/mfa_registration');
  });

  it('sends an enabled but unverified MFA user to verification unless the server signalled a bypass', () => {
    const user = { ...ready, mfa_required: true, mfa_enabled: true };
    expect(postLoginRoute(user, false, null)).toBe('/mfa_verification');
    expect(postLoginRoute(user, true, null)).toBe('/dashboard');
    expect(postLoginRoute({ ...user, mfa_verified: true }, false, null)).toBe('/dashboard');
  });

  it('does not ask for MFA when it is not required', () => {
    expect(postLoginRoute({ ...ready, mfa_enabled: true }, false, null)).toBe('/dashboard');
  });

  it('sends a user without an active membership to /membership, except platform administrators', () => {
    const user = { ...ready, active_membership: false };
    expect(postLoginRoute(user, false, null)).toBe('/membership');
    expect(postLoginRoute({ ...user, is_dm_admin: true }, false, null)).toBe('/dashboard');
  });

  it('checks MFA before membership', () => {
    const user = { ...ready, mfa_required: true, mfa_enabled: true, active_membership: false };
    expect(postLoginRoute(user, false, null)).toBe('/mfa_verification');
    expect(postLoginRoute(user, true, null)).toBe('/membership');
  });

  it('sends a user who has not agreed to the terms to /agree_to_terms after membership', () => {
    expect(postLoginRoute({ ...ready, agreed_to_terms: null }, false, '/profile')).toBe('/agree_to_terms');
    expect(postLoginRoute({ ...ready, agreed_to_terms: null, active_membership: false }, false, null)).toBe(
      '/membership',
    );
  });

  it('goes to the route first attempted, or the dashboard', () => {
    expect(postLoginRoute(ready, false, '/merchants/abc?highlight=1')).toBe('/merchants/abc?highlight=1');
    expect(postLoginRoute(ready, false, null)).toBe('/dashboard');
  });
});
