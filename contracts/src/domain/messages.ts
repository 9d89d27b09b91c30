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
} as const;
