import { MESSAGES } from '@mrn/contracts';
import type { ApiError } from '../../api/api-error.ts';

/** The MFA screens' failure text: the server's "Failed" for a wrong code (core §8), else its own text. */
export const MFA_FAILED = 'Failed';

/** A 401 whose text is not the wrong-code "Failed" means the session itself is gone. */
export const isLostSession = (error: ApiError): boolean =>
  error.status === 401 && error.message !== MFA_FAILED && error.message !== MESSAGES.tooManyAttempts;
