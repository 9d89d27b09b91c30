import {
  SCREENING_CSV_MAX_BYTES,
  SCREENING_OUTCOMES,
  SCREENING_TEXTS,
  type ScreeningOutcome,
  type ScreeningRejectedRow,
  type ScreeningView,
  type SessionUser,
  SIGNAL_GROUP_CATEGORIES,
  SIGNAL_GROUP_LABELS,
  SIGNAL_GROUPS,
  SIGNAL_WINDOWS,
  type SignalGroup,
  type SignalWindow,
} from '@mrn/contracts';
import { canUseMerchantSubscriptions } from '../auth/permissions.ts';

// Portfolio screening's screens (issue 32): what they decide, apart from how they are drawn.

/** A file name the contract takes (at most 255 characters), its extension kept. */
const FILE_NAME_MAX = 255;

/**
 * Why a chosen file cannot be screened, or null when it can: a .csv (or text/csv) file, not empty, of at
 * most the contract's SCREENING_CSV_MAX_BYTES. Its bytes are counted, which is never fewer than the
 * characters the server counts.
 */
export function checkScreeningFile(file: { name: string; size: number; type?: string }): string | null {
  const csvType = file.type === 'text/csv' || file.type === 'application/vnd.ms-excel';
  if (!/\.csv$/i.test(file.name) && !csvType) return 'Choose a .csv file: one EIN a row.';
  if (file.size === 0) return 'The file is empty.';
  if (file.size > SCREENING_CSV_MAX_BYTES) return SCREENING_TEXTS.tooLarge;
  return null;
}

/** The file's name as the request carries it: cut to 255 characters, the extension kept. */
export function screeningFileName(name: string): string {
  const trimmed = name.trim() || 'portfolio.csv';
  if (trimmed.length <= FILE_NAME_MAX) return trimmed;
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(trimmed)?.[0] ?? '';
  return `${trimmed.slice(0, FILE_NAME_MAX - extension.length - 1)}…${extension}`;
}

/** "row 7: must be 9 digits, as 12-3456789", as the server named the row's problem. */
export const describeRejectedRow = (row: Pick<ScreeningRejectedRow, 'row' | 'problem'>): string =>
  `row ${row.row}: ${row.problem}`;

/** What the start page hands the report page (router state): the server's answer, with the rows not screened. */
export interface StartedState {
  started?: { total: number; rejected: ScreeningRejectedRow[] };
}

export const isRunning = (status: ScreeningView['status']): boolean => status !== 'done';

/** How far a screening is, 0–1; undefined while it is queued (an indeterminate bar). */
export function progressOf(view: Pick<ScreeningView, 'status' | 'total' | 'screened'>): number | undefined {
  if (view.status === 'done') return 1;
  if (view.status === 'queued' || view.total === 0) return undefined;
  return Math.min(1, view.screened / view.total);
}

export const STATUS_LABELS: Record<ScreeningView['status'], string> = {
  queued: 'Queued',
  running: 'Screening',
  done: 'Done',
};

/** What a screening screened: the file's name, the watched EINs, or the partner API's list. */
export function sourceLabel(view: Pick<ScreeningView, 'source' | 'file_name'>): string {
  if (view.source === 'csv') return view.file_name ?? 'CSV file';
  if (view.source === 'subscriptions') return 'EINs we watch';
  return 'Partner API';
}

/** The report's heading. */
export function screeningTitle(view: Pick<ScreeningView, 'source' | 'file_name'>): string {
  if (view.source === 'csv') return `Screening of ${view.file_name ?? 'a CSV file'}`;
  if (view.source === 'subscriptions') return 'Screening of the EINs we watch';
  return 'Screening sent through the partner API';
}

export const OUTCOME_LABELS: Record<ScreeningOutcome, string> = {
  found: 'Found',
  not_found: 'Not found',
  rejected: 'Not screened',
};

/** The windows a report counts in, as its controls name them, with the field each count is in. */
export const WINDOW_CHOICES: readonly {
  value: SignalWindow;
  label: string;
  /** "reported in the last 90 days" */
  phrase: string;
  field: 'last_90_days' | 'last_12_months' | 'ever';
}[] = [
  { value: '90d', label: '90 days', phrase: 'in the last 90 days', field: 'last_90_days' },
  { value: '12m', label: '12 months', phrase: 'in the last 12 months', field: 'last_12_months' },
  { value: 'ever', label: 'Ever', phrase: 'ever', field: 'ever' },
];

export const windowChoice = (window: SignalWindow) =>
  WINDOW_CHOICES.find((w) => w.value === window) ?? (WINDOW_CHOICES[2] as (typeof WINDOW_CHOICES)[number]);

/** The report's filters as its address gives them; anything unknown is left out, as the server would refuse it. */
export interface ReportFilters {
  outcome?: ScreeningOutcome;
  category?: SignalGroup;
  window: SignalWindow;
}

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined =>
  list.find((item) => item === value);

export function readReportFilters(get: (name: string) => string | null): ReportFilters {
  const outcome = oneOf(SCREENING_OUTCOMES, get('outcome'));
  const category = oneOf(SIGNAL_GROUPS, get('category'));
  return {
    ...(outcome ? { outcome } : {}),
    ...(category ? { category } : {}),
    window: oneOf(SIGNAL_WINDOWS, get('window')) ?? 'ever',
  };
}

export interface ExposureBar {
  group: SignalGroup;
  label: string;
  /** Merchants found with a live note in the group, in the window. */
  merchants: number;
  /** Of the merchants found, 0–100. */
  percent: number;
  /** The first category of the group: what colours it as the notes' tags are coloured. */
  category: string;
}

/** Every group, worst first, with its merchants in the window (0 where the report has none). */
export function exposureBars(
  exposure: ScreeningView['exposure'],
  found: number,
  window: SignalWindow,
): ExposureBar[] {
  const { field } = windowChoice(window);
  return SIGNAL_GROUPS.map((group) => {
    const merchants = exposure.find((e) => e.group === group)?.[field] ?? 0;
    return {
      group,
      label: SIGNAL_GROUP_LABELS[group],
      merchants,
      percent: found > 0 ? (merchants / found) * 100 : 0,
      category: SIGNAL_GROUP_CATEGORIES[group][0] ?? '',
    };
  });
}

/** "12 merchants" */
export const merchantCount = (n: number): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? 'merchant' : 'merchants'}`;

/** "3.5%", "0%", "<0.1%" */
export function formatPercent(percent: number): string {
  if (percent === 0) return '0%';
  if (percent < 0.1) return '<0.1%';
  return `${percent.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
}

/**
 * Why "Watch all hits" cannot be used by this member on this screening, or null when it can. Watching is
 * an account admin's, on a PRO account with merchant subscriptions on (as the subscription pages are).
 */
export function watchBlockedReason(
  user: Pick<
    SessionUser,
    'is_admin' | 'account_merchant_subscription_enabled' | 'plan_level' | 'is_dm_admin'
  >,
  view: Pick<ScreeningView, 'status' | 'found'>,
): string | null {
  if (user.is_dm_admin) return 'Watching merchants is for funders’ account admins.';
  if (!user.is_admin)
    return 'Only your account’s admins can watch merchants: ask one of them to watch these hits.';
  if (!canUseMerchantSubscriptions(user))
    return 'Merchant subscriptions are not turned on for your account: ask the platform administrators to turn them on, then watch these hits.';
  if (view.status !== 'done') return 'Available once every EIN is screened.';
  if (view.found === 0) return 'This screening found no merchant to watch.';
  return null;
}

/** The toast after "Watch all hits": how many were added, and how many were watched already. */
export function watchedText({ added, already_watched }: { added: number; already_watched: number }): string {
  if (added === 0)
    return already_watched === 1
      ? 'The merchant found was already watched.'
      : `All ${merchantCount(already_watched)} found were already watched.`;
  const already = already_watched > 0 ? `; ${already_watched.toLocaleString('en-US')} already watched` : '';
  return `${merchantCount(added)} added to your watch list${already}.`;
}
