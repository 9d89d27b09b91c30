import { describe, expect, it } from 'vitest';
import { filenameFromDisposition } from './download.ts';

describe('filenameFromDisposition', () => {
  it('reads quoted, bare and RFC 5987 names', () => {
    expect(filenameFromDisposition('attachment; filename="mrn-contacts-2026.csv"')).toBe(
      'mrn-contacts-2026.csv',
    );
    expect(filenameFromDisposition('attachment; filename=contacts.csv')).toBe('contacts.csv');
    expect(filenameFromDisposition('attachment; filename*=UTF-8\'\'caf%C3%A9.csv; filename="cafe.csv"')).toBe(
      'café.csv',
    );
  });

  it('gives null without a name and strips path separators', () => {
    expect(filenameFromDisposition(null)).toBeNull();
    expect(filenameFromDisposition('attachment')).toBeNull();
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('.._.._etc_passwd');
  });
});
