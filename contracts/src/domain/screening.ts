/**
 * Portfolio screening (issue 32): a PRO funder's whole portfolio looked up at once, hundreds or thousands
 * of EINs, each found or not with its risk signals. The rules, decided here and said in README and the
 * Developer Guide:
 * - locked below the contribution minimum, as search is (a funder that does not report does not read);
 * - not a search: it counts toward no other funder's inquiry velocity (a portfolio review is not a
 *   merchant shopping for credit), nor toward the daily search cap or contribution's searched merchants,
 *   but each merchant it found is shown in the platform administrators' inquiry audit;
 * - at most SCREENING_MAX_EINS EINs a screening and SCREENING_DAILY_EINS a funder a day (UTC), so that
 *   screening is no way to copy the database.
 */
export const SCREENING_MAX_EINS = 10_000;
export const SCREENING_DAILY_EINS = 20_000;
/** The largest CSV a screening reads (10,000 EINs with dashes, quotes and CRLF take about 140 KB). */
export const SCREENING_CSV_MAX_BYTES = 512 * 1024;
export const SCREENING_STATUSES = ['queued', 'running', 'done'] as const;
export type ScreeningStatus = (typeof SCREENING_STATUSES)[number];
export const SCREENING_SOURCES = ['csv', 'subscriptions', 'api'] as const;
export type ScreeningSource = (typeof SCREENING_SOURCES)[number];
export const SCREENING_OUTCOMES = ['found', 'not_found', 'rejected'] as const;
export type ScreeningOutcome = (typeof SCREENING_OUTCOMES)[number];
export const SCREENING_ROWS_PER_PAGE = 50;

/** What a row of the file that is not an EIN is told. */
export const SCREENING_ROW_PROBLEMS = {
  notEin: 'must be 9 digits, as 12-3456789',
  onlyEin: 'must contain only an EIN',
  repeated: (row: number) => `the same EIN as row ${row}`,
} as const;

export const SCREENING_TEXTS = {
  noEins: 'The file holds no EIN to screen.',
  tooMany: (n: number) =>
    `A screening takes at most ${SCREENING_MAX_EINS.toLocaleString('en-US')} EINs; this one has ${n.toLocaleString('en-US')}. Split it in parts.`,
  tooLarge: `The file must be at most ${SCREENING_CSV_MAX_BYTES / 1024} KB.`,
  allowance: (left: number) =>
    `A funder screens at most ${SCREENING_DAILY_EINS.toLocaleString('en-US')} EINs a day; ${left.toLocaleString('en-US')} are left today. Try again tomorrow or screen fewer.`,
  locked:
    'Screening is locked while your contribution is below the minimum, as search is. Add your records to unlock it.',
  noSubscriptions: 'Your account watches no EIN yet: upload a CSV of EINs instead.',
  notFound: 'Screening not found.',
  notDone: 'The screening is still running: its report is ready once every EIN is screened.',
  rules: `A screening looks up to ${SCREENING_MAX_EINS.toLocaleString('en-US')} EINs at once (a CSV with one EIN a row, or the EINs your account watches), up to ${SCREENING_DAILY_EINS.toLocaleString('en-US')} a day. It is not a search: other funders' inquiry velocity does not count it, nor does your daily search cap. Like search, it is locked while your contribution is below the minimum.`,
} as const;
