import { EMAIL_MAX, LOGIN_PASSWORD_MAX } from '@mrn/contracts/domain/session';
import { isEmail } from '@mrn/contracts/http/fields';

export interface LoginValues {
  email: string;
  password: string;
}

export type LoginErrors = Partial<Record<keyof LoginValues, string>>;

/** Sign-in form rules of core spec §5; the wording follows the server's field messages. */
export function validateLogin({ email, password }: LoginValues): LoginErrors {
  const errors: LoginErrors = {};
  const trimmedEmail = email.trim();
  if (!trimmedEmail) errors.email = 'Email is required';
  else if (trimmedEmail.length > EMAIL_MAX) errors.email = `Email must be at most ${EMAIL_MAX} characters`;
  else if (!isEmail(trimmedEmail)) errors.email = 'Email is not a valid email address';

  // Passwords are taken as typed: spaces count.
  if (!password) errors.password = 'Password is required';
  else if (password.length > LOGIN_PASSWORD_MAX)
    errors.password = `Password must be at most ${LOGIN_PASSWORD_MAX} characters`;
  return errors;
}
