export type MailPart = { kind: 'text'; text: string } | { kind: 'link'; url: string };

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;
// Punctuation that ends a sentence rather than the address.
const TRAILING = /[.,;:!?)\]]+$/;

/** A mail body as text and links, so the mailbox can make addresses clickable. */
export function splitLinks(text: string): MailPart[] {
  const parts: MailPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    const url = match[0].replace(TRAILING, '');
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Where a link in a development mail should go: links to this app (its origin, or a local server
 * configured with another port) open here as a path; anything else as written.
 */
export function mailLinkHref(url: string, origin: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.origin === origin || LOCAL_HOSTS.has(parsed.hostname))
      return parsed.pathname + parsed.search + parsed.hash;
    return parsed.href;
  } catch {
    return url;
  }
}
