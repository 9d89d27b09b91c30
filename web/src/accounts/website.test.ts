import { describe, expect, it } from 'vitest';
import { websiteHref, websiteLabel } from './website.ts';

describe('funder websites', () => {
  it('links bare hosts over https and keeps given schemes', () => {
    expect(websiteHref('summit.example')).toBe('https://summit.example/');
    expect(websiteHref('http://harbor.example/about')).toBe('http://harbor.example/about');
    expect(websiteHref(null)).toBeNull();
    expect(websiteHref('  ')).toBeNull();
    expect(websiteHref('javascript:alert(1)')).toBeNull();
  });

  it('shows the address without scheme or trailing slash', () => {
    expect(websiteLabel('https://summit.example/')).toBe('summit.example');
  });
});
