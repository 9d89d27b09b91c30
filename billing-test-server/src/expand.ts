import { invalidRequest } from './errors.ts';
import type { State } from './state.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function expandPath(state: State, target: Obj, segments: string[], full: string): void {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  if (target.object === 'list' && head === 'data' && Array.isArray(target.data)) {
    for (const item of target.data) if (isObj(item)) expandPath(state, item, rest, full);
    return;
  }
  const value = target[head];
  if (value === null) return;
  if (typeof value === 'string') {
    const found = state.find(value);
    if (!found) throw invalidRequest(`This property cannot be expanded (${full}).`, 'expand');
    const copy = structuredClone(found) as Obj;
    target[head] = copy;
    expandPath(state, copy, rest, full);
    return;
  }
  // Nested hashes (`invoice_settings.default_payment_method`) and objects expanded by an earlier path.
  if (isObj(value) && (rest.length > 0 || typeof value.id === 'string')) {
    expandPath(state, value, rest, full);
    return;
  }
  throw invalidRequest(`This property cannot be expanded (${full}).`, 'expand');
}

/** `expand[]`: ids replaced by their objects along each dotted path, on a copy of the answer. */
export function expand<T>(state: State, object: T, paths: string[]): T {
  if (paths.length === 0) return object;
  const copy = structuredClone(object) as Obj;
  for (const path of paths) expandPath(state, copy, path.split('.'), path);
  return copy as T;
}
