import { MESSAGES, type RouteSpec } from '@mrn/contracts';
import { ApiError } from './api-error.ts';
import { readToken } from './token-store.ts';
import { notifyUnauthorized } from './unauthorized.ts';

/** The file name of a `Content-Disposition` header (`filename*=` preferred), or null. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Fall through to the plain form.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  const name = (plain?.[2] ?? plain?.[1])?.trim();
  return name ? name.replace(/[\\/]/g, '_') : null;
}

/**
 * The file answer of a GET route (CSV exports, import results), asked with the session token itself:
 * the typed client reads JSON. A failure throws ApiError with the server's text or the fallback.
 */
export async function fetchRouteFile(route: RouteSpec, signal?: AbortSignal): Promise<Response> {
  const fallback = MESSAGES.fallback(route.action ?? 'download the file');
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(route.path, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, fallback);
  }
  if (!response.ok) {
    if (response.status === 401) notifyUnauthorized();
    const body = (await response.json().catch(() => null)) as { errors?: unknown } | null;
    throw new ApiError(response.status, typeof body?.errors === 'string' ? body.errors : fallback);
  }
  return response;
}

/** Downloads a file answer of a GET route (CSV exports) and saves the body under the server's file name. */
export async function downloadRoute(route: RouteSpec, fallbackName: string): Promise<string> {
  const response = await fetchRouteFile(route);
  const blob = await response.blob();
  const name = filenameFromDisposition(response.headers.get('content-disposition')) ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Let the browser start reading the blob before it is released.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
