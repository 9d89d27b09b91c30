import type { NoteCategory } from './notes.ts';

/**
 * Risk signals (issue 32): what funders reported on a merchant, counted and dated, each figure traceable
 * to the notes it was counted from. Not a score: the network stays a record of what funders reported.
 *
 * The groups, worst first: the order is the one the signals are shown in and what "worst category"
 * means for a linked merchant. A default is worst (money was lost), then fraud, then the shopping
 * patterns that precede defaults, then payment behaviour, then what says little about credit risk.
 */
export const SIGNAL_GROUPS = [
  'default',
  'suspicious_activity',
  'stacking_history',
  'slow_pay',
  'split_payer',
  'criminal_history',
  'covid_19_hardship',
  'other',
] as const;
export type SignalGroup = (typeof SIGNAL_GROUPS)[number];

export const SIGNAL_GROUP_LABELS: Record<SignalGroup, string> = {
  default: 'Default / Default Account',
  suspicious_activity: 'Suspicious Activity',
  stacking_history: 'Stacking History',
  slow_pay: 'Slow Pay',
  split_payer: 'Split Payer',
  criminal_history: 'Criminal History',
  covid_19_hardship: 'Covid-19 Hardship',
  other: 'Other',
};

/** The categories each group counts: what a signal opens. */
export const SIGNAL_GROUP_CATEGORIES: Record<SignalGroup, readonly NoteCategory[]> = {
  default: ['Default', 'Default Account'],
  suspicious_activity: ['Suspicious Activity'],
  stacking_history: ['Stacking History'],
  slow_pay: ['Slow Pay'],
  split_payer: ['Split Payer'],
  criminal_history: ['Criminal History'],
  covid_19_hardship: ['Covid-19 Hardship'],
  other: ['Other'],
};

/**
 * How a note counts: in its group, as the satisfaction of a default (cured), or not at all (a Merchant
 * Dispute note records a platform decision, and disputes are counted from the disputes themselves).
 */
export function signalKindOf(category: NoteCategory): SignalGroup | 'satisfied' | null {
  if (category === 'Default Satisfied') return 'satisfied';
  for (const group of SIGNAL_GROUPS) if (SIGNAL_GROUP_CATEGORIES[group].includes(category)) return group;
  return null;
}

/** The windows a group is counted in: the last 90 days and 12 months before the read, and ever. */
export const SIGNAL_WINDOWS = ['90d', '12m', 'ever'] as const;
export type SignalWindow = (typeof SIGNAL_WINDOWS)[number];
export const SIGNAL_WINDOW_LABELS: Record<SignalWindow, string> = {
  '90d': 'last 90 days',
  '12m': 'last 12 months',
  ever: 'ever',
};

/** The worst group of those given (a merchant's reported groups), or null when none. */
export const worstGroup = (groups: Iterable<string>): SignalGroup | null => {
  const present = new Set(groups);
  return SIGNAL_GROUPS.find((g) => present.has(g)) ?? null;
};

export const SIGNAL_TEXTS = {
  funders:
    'Distinct funders with a live note on this merchant in any category below (each funder once, whatever it reported).',
  group: (label: string) =>
    `Live notes in ${label}: how many were added in the last 90 days, in the last 12 months (since this day a year ago) and ever, and when the latest was added. A deleted note no longer counts.`,
  cured:
    'A Default Satisfied note was added after the latest default: the funder that reported the default says it was paid or settled.',
  disputes:
    'Disputes the business owner filed against this EIN: open ones are being reviewed by the network; resolved ones were decided.',
  linked:
    'The worst category reported on each business possibly linked to this one (same phone or street address), worst first as the signals are ordered.',
  none: 'No funder has reported this merchant in any category.',
} as const;

/** A merchant's projected summary (read.merchant_signals): distinct funders and each kind's report times. */
export interface SignalSummary {
  funders: number;
  /** Epoch milliseconds of each live note, oldest first, by group (and `satisfied`). */
  reports: Partial<Record<SignalGroup | 'satisfied', number[]>>;
}

export interface GroupSignal {
  group: SignalGroup;
  label: string;
  last_90_days: number;
  last_12_months: number;
  ever: number;
  last_reported_at: string;
}

export interface Signals {
  funders: number;
  categories: GroupSignal[];
  cured_at: string | null;
  disputes: { open: number; resolved: number };
}

const DAY_MS = 86_400_000;

/** The windows' starts as of `asOf`: a note counts in a window when added after its start (and by `asOf`). */
export function signalWindowStarts(asOf: Date): Record<Exclude<SignalWindow, 'ever'>, number> {
  // The same day and time a year before; 29 February's year before is 28 February (as PostgreSQL's
  // `interval '12 months'` and people count), not 1 March.
  const yearAgo = new Date(asOf);
  yearAgo.setUTCDate(1);
  yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
  const lastDay = new Date(Date.UTC(yearAgo.getUTCFullYear(), yearAgo.getUTCMonth() + 1, 0)).getUTCDate();
  yearAgo.setUTCDate(Math.min(asOf.getUTCDate(), lastDay));
  return { '90d': asOf.getTime() - 90 * DAY_MS, '12m': yearAgo.getTime() };
}

/**
 * The signals as of `asOf`, from the projected summary and the EIN's disputes. Cured: the latest Default
 * Satisfied came after the latest default (a new default after it is not cured).
 */
export function signalsFrom(
  summary: SignalSummary | null,
  disputes: { open: number; resolved: number },
  asOf: Date,
): Signals {
  const now = asOf.getTime();
  const starts = signalWindowStarts(asOf);
  const timesOf = (kind: SignalGroup | 'satisfied') => (summary?.reports[kind] ?? []).filter((t) => t <= now);
  const categories: GroupSignal[] = [];
  for (const group of SIGNAL_GROUPS) {
    const times = timesOf(group);
    if (times.length === 0) continue;
    categories.push({
      group,
      label: SIGNAL_GROUP_LABELS[group],
      last_90_days: times.filter((t) => t > starts['90d']).length,
      last_12_months: times.filter((t) => t > starts['12m']).length,
      ever: times.length,
      last_reported_at: new Date(Math.max(...times)).toISOString(),
    });
  }
  const lastDefault = Math.max(-Infinity, ...timesOf('default'));
  const lastSatisfied = Math.max(-Infinity, ...timesOf('satisfied'));
  return {
    funders: summary?.funders ?? 0,
    categories,
    cured_at:
      Number.isFinite(lastDefault) && lastSatisfied > lastDefault
        ? new Date(lastSatisfied).toISOString()
        : null,
    disputes,
  };
}

/** A live note as the signals count it: its kind (signalKindOf), its funder and when it was added. */
export interface CountedNote {
  kind: SignalGroup | 'satisfied' | null;
  accountId: string;
  at: number;
}

/** The summary of a merchant's live notes, as the merchant_signals projector keeps it. */
export function summaryOf(notes: readonly CountedNote[]): SignalSummary {
  const reports: SignalSummary['reports'] = {};
  const funders = new Set<string>();
  for (const n of [...notes].sort((a, b) => a.at - b.at)) {
    if (n.kind === null) continue;
    const times = reports[n.kind] ?? [];
    times.push(n.at);
    reports[n.kind] = times;
    if (n.kind !== 'satisfied') funders.add(n.accountId);
  }
  return { funders: funders.size, reports };
}

/**
 * What a note changed that a watcher is told of (issue 32): groups the merchant did not have before,
 * and whether a funder reported it that had not. A further note in a group already reported, by a
 * funder already counted, changes nothing worth a message.
 */
export function signalChange(
  before: readonly CountedNote[],
  after: readonly CountedNote[],
): { newGroups: SignalGroup[]; newFunder: boolean } {
  const groupsOf = (notes: readonly CountedNote[]) =>
    new Set(notes.flatMap((n) => (n.kind && n.kind !== 'satisfied' ? [n.kind] : [])));
  const fundersOf = (notes: readonly CountedNote[]) =>
    new Set(notes.flatMap((n) => (n.kind && n.kind !== 'satisfied' ? [n.accountId] : [])));
  const had = groupsOf(before);
  const counted = fundersOf(before);
  const now = groupsOf(after);
  return {
    newGroups: SIGNAL_GROUPS.filter((g) => now.has(g) && !had.has(g)),
    newFunder: [...fundersOf(after)].some((a) => !counted.has(a)),
  };
}

/** The `data` of a merchant.signals_changed webhook: what the dispatcher sends and the guide shows. */
export interface SignalsChangedWebhookData {
  merchant_ein: string;
  merchant_name: string;
  action: 'Signals Changed';
  new_categories: string[];
  new_funder: boolean;
  before: Omit<Signals, 'disputes'>;
  after: Omit<Signals, 'disputes'>;
  merchant_url: string;
}

export const SIGNALS_CHANGED_PAYLOAD_EXAMPLE: {
  type: 'merchant.signals_changed';
  timestamp: string;
  data: SignalsChangedWebhookData;
} = {
  type: 'merchant.signals_changed',
  timestamp: '2026-11-24T15:04:05.000Z',
  data: {
    merchant_ein: '123456789',
    merchant_name: 'Acme Coffee LLC',
    action: 'Signals Changed',
    new_categories: ['Default / Default Account'],
    new_funder: true,
    before: {
      funders: 1,
      categories: [
        {
          group: 'slow_pay',
          label: 'Slow Pay',
          last_90_days: 1,
          last_12_months: 1,
          ever: 1,
          last_reported_at: '2026-10-02T14:03:11.000Z',
        },
      ],
      cured_at: null,
    },
    after: {
      funders: 2,
      categories: [
        {
          group: 'default',
          label: 'Default / Default Account',
          last_90_days: 1,
          last_12_months: 1,
          ever: 1,
          last_reported_at: '2026-11-24T15:04:05.000Z',
        },
        {
          group: 'slow_pay',
          label: 'Slow Pay',
          last_90_days: 1,
          last_12_months: 1,
          ever: 1,
          last_reported_at: '2026-10-02T14:03:11.000Z',
        },
      ],
      cured_at: null,
    },
    merchant_url: 'https://merchantrisk.example/merchants/…',
  },
};
