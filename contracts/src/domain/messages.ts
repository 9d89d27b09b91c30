/** User-facing texts that the server sends and the browser shows (specs §8). */
export const MESSAGES = {
  invalidCredentials: 'Invalid email or password.',
  tooManyAttempts: 'Too many sign-in attempts. Please wait and try again.',
  sessionEnded: 'Your session has ended. Please sign in again.',
  notAllowed: 'You are not allowed to do that.',
  notFound: 'Not found.',
  loggedIn: (product: string) => `You are now logged into ${product}.`,
  fallback: (action: string) => `An error occurred while attempting to ${action}.`,
  appSettingsFailed: 'An error occurred while attempting to retrieve app settings.',
  pageNotFound: "The page you are looking for isn't here.",
  disclaimer:
    'The information on this site covers commercial entities only, including sole proprietors, and is not a consumer report.',
  contributionTooltip: 'Minimum upload percentage to search is 0.5%',
  malformedAddress: 'The address is not valid: it has a malformed percent-encoding (%XX).',
  /** A body over a route's limit (413), wherever it is refused: the service, the gateway, the API guide. */
  bodyTooLarge: (bytes?: number) =>
    bytes
      ? `The body is larger than ${bytesText(bytes)}: nothing was read.`
      : 'The body is too large: nothing was read.',
} as const;

/** A size as people read it: 1 MiB, 64 KiB, 300 bytes. */
export const bytesText = (bytes: number) =>
  bytes % 1_048_576 === 0
    ? `${bytes / 1_048_576} MiB`
    : bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`;

/** What the partner API (v2) says about tokens and access. */
export const API_TEXTS = {
  badCredentials: 'The authentication token or key is not valid.',
  noApiAccess: 'API access has not been granted to this user or account.',
  accessRevoked: 'API access has been revoked. Ask your account administrator for new credentials.',
  needsApiToken: 'This call needs an API token: get one from POST /api/v2/token.',
  dashboardOnly: 'An API token only works on the partner API (/api/v2).',
  tokenMissing: 'Send your API token in the Authorization header.',
  tokenExpired: 'The API token has expired or is not valid. Get a new one from POST /api/v2/token.',
  rateLimited: (seconds: number) => `Too many requests. Try again in ${seconds} seconds.`,
  subscriptionsOnly:
    'Merchant subscriptions are only available to PRO funders with merchant subscriptions enabled.',
} as const;
