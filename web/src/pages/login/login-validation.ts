import { LoginBody } from '@mrn/contracts';
import { type FieldErrors, schemaErrors } from '../../forms/validate.ts';

export interface LoginValues {
  email: string;
  password: string;
}

export type LoginErrors = FieldErrors<keyof LoginValues>;

const LABELS = { email: 'Email', password: 'Password' } as const;

/** Sign-in form rules of core spec §5: the server's own LoginBody schema, worded after each label. */
export function validateLogin(values: LoginValues): LoginErrors {
  return schemaErrors(LoginBody, { auth: values }, LABELS, (path) =>
    path === 'auth.email' ? 'email' : path === 'auth.password' ? 'password' : undefined,
  );
}
