import { describe, expect, it } from 'vitest';
import { experienceKey, legacyExperienceKey, prefixRange, taskOfExperienceKey } from '../../../src/core/ids';

describe('experience keys (schema v6 order)', () => {
  it('orders the parts dataset, tool, task, rater; the old order is kept for upgrades and old backups', () => {
    expect(experienceKey('ds', 't1', 'A', 'r')).toBe('ds|A|t1|r');
    expect(legacyExperienceKey('ds', 't1', 'A', 'r')).toBe('ds|t1|A|r');
  });

  it('tells the task of a four-part key only', () => {
    expect(taskOfExperienceKey('ds|A|t1|r')).toBe('t1');
    // A part holding '|' makes the key ambiguous: the caller must look the row up.
    expect(taskOfExperienceKey(experienceKey('ds', 'a|b', 'A', 'r'))).toBeUndefined();
    expect(taskOfExperienceKey('ds|A|t1')).toBeUndefined();
  });

  it('a prefix range holds exactly the strings that start with the prefix', () => {
    const [lower, upper] = prefixRange('ds|A|');
    expect([lower, upper]).toEqual(['ds|A|', 'ds|A}']);
    const inside = (s: string) => s >= lower && s < upper;
    expect(['ds|A|', 'ds|A|t|r', 'ds|A|\uffff'].every(inside)).toBe(true);
    expect(['ds|A', 'ds|AB|t|r', 'ds|A}', 'ds|B|t|r', 'ds|@|t'].some(inside)).toBe(false);
  });
});
