import { describe, expect, it } from 'vitest';
import { validateLogin } from './login-validation.ts';

const valid = { email: 'ann@funder.example', password: 'secret' };

describe('validateLogin', () => {
  it('accepts a valid email and password', () => {
    expect(validateLogin(valid)).toEqual({});
  });

  it('says "is required" for missing fields', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
    expect(validateLogin({ ...valid, email: '   ' }).email).toBe('Email is required');
  });

  it('checks the email format', () => {
    expect(validateLogin({ ...valid, email: 'ann@funder' }).email).toBe('Email is not a valid email address');
    expect(validateLogin({ ...valid, email: 'ann funder@x.io' }).email).toBe(
      'Email is not a valid email address',
    );
    expect(validateLogin({ ...valid, email: '  ann@funder.example  ' })).toEqual({});
  });

  it('limits the email to 64 characters', () => {
    const at64 = `${'a'.repeat(52)}@example.com`;
    expect(at64).toHaveLength(64);
    expect(validateLogin({ ...valid, email: at64 })).toEqual({});
    expect(validateLogin({ ...valid, email: `a${at64}` }).email).toBe('Email must be at most 64 characters');
  });

  it('limits the password to 128 characters and keeps spaces', () => {
    expect(validateLogin({ ...valid, password: 'x'.repeat(128) })).toEqual({});
    expect(validateLogin({ ...valid, password: 'x'.repeat(129) }).password).toBe(
      'Password must be at most 128 characters',
    );
    expect(validateLogin({ ...valid, password: ' ' })).toEqual({});
  });
});
