import {
  type NoteCategory,
  SIGNAL_GROUP_CATEGORIES,
  SIGNAL_GROUP_LABELS,
  SIGNAL_GROUPS,
  SIGNAL_WINDOW_LABELS,
  SIGNAL_WINDOWS,
  type SignalGroup,
  type SignalWindow,
  signalWindowStarts,
} from '@mrn/contracts';

/** What a signal link narrows the notes to: a group (or the Default Satisfied notes) in a window. */
export interface SignalFilter {
  kind: SignalGroup | 'satisfied';
  window: SignalWindow;
}

/** The filter a merchant page's address asks for (`?signal=default&window=90d`), if it is one. */
export function signalFilterOf(params: URLSearchParams): SignalFilter | null {
  const kind = params.get('signal');
  const window = params.get('window') ?? 'ever';
  if (!kind || !(SIGNAL_WINDOWS as readonly string[]).includes(window)) return null;
  if (kind !== 'satisfied' && !(SIGNAL_GROUPS as readonly string[]).includes(kind)) return null;
  return { kind: kind as SignalFilter['kind'], window: window as SignalWindow };
}

const categoriesOf = (kind: SignalFilter['kind']): readonly NoteCategory[] =>
  kind === 'satisfied' ? ['Default Satisfied'] : SIGNAL_GROUP_CATEGORIES[kind];

/** The notes a signal was counted from, by the same rule the server counts them (contracts' signalsFrom). */
export function notesOfSignal<N extends { category: string; created_at: string }>(
  notes: readonly N[],
  filter: SignalFilter,
  now: Date,
): N[] {
  const categories = categoriesOf(filter.kind) as readonly string[];
  const starts = signalWindowStarts(now);
  const after = filter.window === 'ever' ? -Infinity : starts[filter.window];
  return notes.filter((n) => {
    const at = Date.parse(n.created_at);
    return categories.includes(n.category) && at > after && at <= now.getTime();
  });
}

export const describeSignalFilter = (filter: SignalFilter): string =>
  `${filter.kind === 'satisfied' ? 'Default Satisfied' : SIGNAL_GROUP_LABELS[filter.kind]}, ${SIGNAL_WINDOW_LABELS[filter.window]}`;
