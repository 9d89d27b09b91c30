import { describe, expect, it } from 'vitest';
import { MESSAGE_INTENT } from './message-intent.ts';

describe('MESSAGE_INTENT', () => {
  it('maps each severity to its colour', () => {
    expect(MESSAGE_INTENT).toEqual({
      info: 'primary',
      warning: 'warning',
      error: 'danger',
      success: 'success',
    });
  });
});
