/** An external link for a funder's website as entered ("summit.example" or a full address), or null. */
export function websiteHref(website: string | null): string | null {
  const trimmed = website?.trim();
  if (!trimmed) return null;
  const href = /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The website without scheme and trailing slash, as people write it. */
export const websiteLabel = (website: string): string =>
  website
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/$/, '');
