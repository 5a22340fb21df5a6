import { describe, expect, it } from 'vitest';
import { isId, newId } from './ids.js';

describe('ids', () => {
  it('are prefixed ULIDs that sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 200 }, () => newId('verification', 1_700_000_000_000));
    expect(ids.every((id) => isId('verification', id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(200);
    expect(newId('verification') > ids[199]!).toBe(true);
  });
});
