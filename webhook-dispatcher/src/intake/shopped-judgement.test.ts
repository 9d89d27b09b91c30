import { describe, expect, it } from 'vitest';
import { judgeShopped } from './shopped-alerts.ts';

// The being-shopped rule alone (issue 30, item 7): from the figure (distinct other funders in 7 days)
// and the watcher's threshold just before and just after an event, and whether the watcher was alerted
// in the current episode. The database tests (shopped-alerts.test.ts) run it through the intake.

const alert = { alert: true, alerted: true };
const stillAlerted = { alert: false, alerted: true };
const over = { alert: false, alerted: false };

describe('judgeShopped', () => {
  it('alerts the search that takes the figure to the threshold, and not the ones after it', () => {
    expect(judgeShopped({ count: 1, threshold: 2 }, { count: 2, threshold: 2 }, false)).toEqual(alert);
    expect(judgeShopped({ count: 2, threshold: 2 }, { count: 3, threshold: 2 }, true)).toEqual(stillAlerted);
  });

  it('never alerts for a funder already counted searching again (the figure does not move)', () => {
    expect(judgeShopped({ count: 1, threshold: 2 }, { count: 1, threshold: 2 }, false)).toEqual(over);
    expect(judgeShopped({ count: 2, threshold: 2 }, { count: 2, threshold: 2 }, true)).toEqual(stillAlerted);
  });

  it('ends the episode when the figure is below the threshold, so the next crossing alerts', () => {
    expect(judgeShopped({ count: 2, threshold: 2 }, { count: 1, threshold: 2 }, true)).toEqual(over);
    expect(judgeShopped({ count: 1, threshold: 2 }, { count: 2, threshold: 2 }, false)).toEqual(alert);
  });

  it('alerts again when the figure fell below with time alone (alerted is from the last episode)', () => {
    expect(judgeShopped({ count: 1, threshold: 2 }, { count: 2, threshold: 2 }, true)).toEqual(alert);
  });

  it('alerts when the threshold is lowered to the figure or below it', () => {
    expect(judgeShopped({ count: 3, threshold: 20 }, { count: 3, threshold: 2 }, false)).toEqual(alert);
    expect(judgeShopped({ count: 3, threshold: 20 }, { count: 3, threshold: 3 }, false)).toEqual(alert);
    expect(judgeShopped({ count: 3, threshold: 20 }, { count: 3, threshold: 4 }, false)).toEqual(over);
  });

  it('ends the episode when the threshold is raised above the figure, not when raised to it', () => {
    expect(judgeShopped({ count: 3, threshold: 2 }, { count: 3, threshold: 3 }, true)).toEqual(stillAlerted);
    expect(judgeShopped({ count: 3, threshold: 2 }, { count: 3, threshold: 5 }, true)).toEqual(over);
    expect(judgeShopped({ count: 3, threshold: 5 }, { count: 3, threshold: 2 }, false)).toEqual(alert);
  });

  it('ends the episode when alerts are turned off, and alerts when they are turned on at or above', () => {
    expect(judgeShopped({ count: 3, threshold: 2 }, { count: 3, threshold: null }, true)).toEqual(over);
    expect(judgeShopped({ count: 3, threshold: null }, { count: 3, threshold: 2 }, false)).toEqual(alert);
    expect(judgeShopped({ count: 3, threshold: null }, { count: 3, threshold: 2 }, true)).toEqual(alert);
    expect(judgeShopped({ count: 1, threshold: null }, { count: 1, threshold: 2 }, false)).toEqual(over);
  });

  it('alerts a watch that starts at or above the threshold (not watching before: no episode ran)', () => {
    expect(judgeShopped({ count: 0, threshold: null }, { count: 3, threshold: 2 }, false)).toEqual(alert);
    expect(judgeShopped({ count: 0, threshold: null }, { count: 3, threshold: 2 }, true)).toEqual(alert);
    expect(judgeShopped({ count: 0, threshold: null }, { count: 1, threshold: 2 }, true)).toEqual(over);
  });

  it('alerts once a watcher at or above its threshold that was never told (no episode recorded)', () => {
    expect(judgeShopped({ count: 3, threshold: 2 }, { count: 3, threshold: 2 }, false)).toEqual(alert);
  });
});
