import { describe, expect, it } from 'vitest';
import { deviceTokenIn, parseDeviceTokens, withDeviceToken } from './remember-device.ts';

describe('remember-device tokens', () => {
  it('keeps one token per e-mail address, case-insensitively', () => {
    let tokens = withDeviceToken({}, 'Dana@Summit.example', 'tok-1');
    tokens = withDeviceToken(tokens, 'marco@summit.example', 'tok-2');
    expect(deviceTokenIn(tokens, ' dana@summit.example ')).toBe('tok-1');
    expect(deviceTokenIn(tokens, 'marco@summit.example')).toBe('tok-2');
    expect(deviceTokenIn(tokens, 'nobody@summit.example')).toBeNull();
  });

  it('replaces and removes a token', () => {
    const tokens = withDeviceToken({ 'dana@summit.example': 'old' }, 'dana@summit.example', 'new');
    expect(tokens).toEqual({ 'dana@summit.example': 'new' });
    expect(withDeviceToken(tokens, 'DANA@summit.example', null)).toEqual({});
  });

  it('reads anything unreadable as no tokens', () => {
    expect(parseDeviceTokens(null)).toEqual({});
    expect(parseDeviceTokens('not json')).toEqual({});
    expect(parseDeviceTokens('[1,2]')).toEqual({});
    expect(parseDeviceTokens('{"a@b.example":"t","c@d.example":5}')).toEqual({ 'a@b.example': 't' });
  });
});
