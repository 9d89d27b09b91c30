import qs from 'qs';
import { invalidInteger, invalidRequest, parameterMissing, parameterUnknown } from './errors.ts';

/** A request's parameters after qs: nested objects and arrays from Stripe's bracket notation. */
export type Params = Record<string, unknown>;

// Stripe's SDK writes arrays as `items[0][price]`; qs turns indices up to arrayLimit into arrays.
const QS_OPTIONS: qs.IParseOptions = {
  depth: 8,
  arrayLimit: 100,
  parameterLimit: 2000,
  allowPrototypes: false,
};

export function parseForm(text: string): Params {
  return qs.parse(text, QS_OPTIONS) as Params;
}

export function isRecord(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Refuses what this server does not implement instead of silently ignoring it. */
export function checkKnown(params: Params, known: readonly string[], prefix = ''): void {
  for (const key of Object.keys(params)) {
    if (!known.includes(key)) throw parameterUnknown(prefix ? `${prefix}[${key}]` : key, known);
  }
}

export function optionalString(params: Params, name: string, param = name): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${JSON.stringify(value)}`, param);
  return value;
}

export function requiredString(params: Params, name: string, param = name): string {
  const value = optionalString(params, name, param);
  if (value === undefined || value === '') throw parameterMissing(param);
  return value;
}

export function optionalInteger(params: Params, name: string, param = name): number | undefined {
  const value = params[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw invalidInteger(param, value);
  return Number(value);
}

export function requiredInteger(params: Params, name: string, param = name): number {
  const value = optionalInteger(params, name, param);
  if (value === undefined) throw parameterMissing(param);
  return value;
}

export function optionalBoolean(params: Params, name: string, param = name): boolean | undefined {
  const value = params[name];
  if (value === undefined || value === '') return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalidRequest(`Invalid boolean: ${String(value)}`, param, 'parameter_invalid_boolean');
}

export function optionalEnum<T extends string>(
  params: Params,
  name: string,
  allowed: readonly T[],
  param = name,
): T | undefined {
  const value = optionalString(params, name, param);
  if (value === undefined || value === '') return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalidRequest(
      `Invalid ${param}: must be one of ${allowed.join(', ')} (the billing test server implements these)`,
      param,
    );
  }
  return value as T;
}

export function optionalRecord(params: Params, name: string, param = name): Params | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw invalidRequest(`Invalid object: ${param}`, param);
  return value;
}

/** Arrays arrive as `x[0]=…` (array) or, past qs's limit, as an object keyed by index. */
export function optionalArray(params: Params, name: string, param = name): unknown[] | undefined {
  const value = params[name];
  if (value === undefined || value === '') return undefined;
  if (Array.isArray(value)) return value;
  if (isRecord(value)) return Object.values(value);
  if (typeof value === 'string') return [value];
  throw invalidRequest(`Invalid array: ${param}`, param);
}

export function expandParam(params: Params): string[] {
  const list = optionalArray(params, 'expand') ?? [];
  return list.filter((v): v is string => typeof v === 'string');
}

/**
 * Stripe's metadata update: keys merge, an empty value deletes its key, `metadata=` clears all.
 */
export function applyMetadata(current: Record<string, string>, params: Params): Record<string, string> {
  const value = params.metadata;
  if (value === undefined) return current;
  if (value === '') return {};
  if (!isRecord(value)) throw invalidRequest('Invalid metadata: must be a hash', 'metadata');
  const next = { ...current };
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw invalidRequest(`Invalid metadata value for ${key}`, `metadata[${key}]`);
    if (key.length > 40)
      throw invalidRequest('Metadata keys can have up to 40 characters.', `metadata[${key}]`);
    if (v.length > 500)
      throw invalidRequest('Metadata values can have up to 500 characters.', `metadata[${key}]`);
    if (v === '') delete next[key];
    else next[key] = v;
  }
  if (Object.keys(next).length > 50) throw invalidRequest('Metadata can have up to 50 keys.', 'metadata');
  return next;
}
