const UNITS = ['KB', 'MB', 'GB'] as const;

/** A file size as B, KB, MB or GB with two decimals (accounts spec §9): 512 B, 1.50 KB, 10.00 MB. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit: (typeof UNITS)[number] = 'KB';
  for (const next of UNITS) {
    value /= 1024;
    unit = next;
    if (value < 1024 || next === 'GB') break;
  }
  // 1023.999 KB rounds to "1024.00 KB"; show it as the next unit instead.
  if (value.toFixed(2) === '1024.00' && unit !== 'GB') {
    value = 1;
    unit = UNITS[UNITS.indexOf(unit) + 1] as (typeof UNITS)[number];
  }
  return `${value.toFixed(2)} ${unit}`;
}
