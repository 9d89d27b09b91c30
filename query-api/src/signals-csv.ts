import { type MerchantSignals, SIGNAL_GROUPS } from '@mrn/contracts';

// A merchant's risk signals as CSV columns (issue 32): the same in every export that carries them (the
// screening report, the watched merchants), so a spreadsheet built on one reads the other.

const WINDOWS = [
  ['90d', 'last_90_days'],
  ['12m', 'last_12_months'],
  ['ever', 'ever'],
] as const;

/** One column per figure: funders, worst, cured, disputes, then a column per category group and window. */
export const SIGNAL_CSV_COLUMNS = [
  'funders',
  'worst_category',
  'cured_at',
  'open_disputes',
  'resolved_disputes',
  ...SIGNAL_GROUPS.flatMap((g) => WINDOWS.map(([w]) => `${g}_${w}`)),
];

/** The cells of `SIGNAL_CSV_COLUMNS`; all empty for an EIN with no merchant (nothing to count). */
export function signalCsvCells(
  s: MerchantSignals | null | undefined,
): (string | number | null | undefined)[] {
  return [
    s?.funders,
    s?.categories[0]?.label,
    s?.cured_at,
    s?.disputes.open,
    s?.disputes.resolved,
    ...SIGNAL_GROUPS.flatMap((g) => {
      const c = s?.categories.find((x) => x.group === g);
      return WINDOWS.map(([, field]) => (s ? (c?.[field] ?? 0) : ''));
    }),
  ];
}
