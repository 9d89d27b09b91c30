import { READ_MODELS } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import { allProjectors } from './index.ts';

describe('read model names', () => {
  it('are the projectors the product runs, one for one (routes wait for them by these names)', () => {
    expect([...READ_MODELS].sort()).toEqual(allProjectors.map((p) => p.name).sort());
  });
});
