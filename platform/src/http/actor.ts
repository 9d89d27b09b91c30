import type { PlanLevel } from '@mrn/contracts';

/** Who is calling, as established by authentication: the one input to every permission decision. */
export interface Actor {
  userId: string;
  accountId: string;
  sessionId: string;
  sessionVersion: number;
  isAdmin: boolean;
  isDmAdmin: boolean;
  planLevel: PlanLevel;
  /** True while the user still owes the MFA step of sign-in. */
  mfaPending: boolean;
  /** Calling with an API token (the partner API), not a dashboard sign-in. */
  viaApi?: boolean;
}

/** The claims we put in a JWT (short names: the token travels on every request). */
export interface TokenClaims {
  sub: string;
  acc: string;
  sid: string;
  sv: number;
  adm: boolean;
  dm: boolean;
  mfa: 'pending' | 'ok';
  /** `api`: an API token of POST /api/v2/token, good for the partner API only. Absent: a dashboard sign-in. */
  knd?: 'api';
  /**
   * The revision of the user's stream `adm` and `dm` were read at (a sign-in): the session check trusts
   * them over a read model that has not applied that revision yet. Absent: the read model decides.
   */
  urv?: number;
}
