import { describe, expect, it } from 'vitest';
import { scoreKeys } from '../../../src/core/label/score-keys';
import { actsOnItem, labelKeyAction, noScoreNote, notReadyNote, otherRatersText, queueFilterSummary, scoreShortcuts } from '../../../src/ui/label-score';

describe('the folded queue filters say what they are set to', () => {
  it('dataset, tool, mode and category, in that order', () => {
    expect(queueFilterSummary({ datasetIds: ['d1'], toolIds: ['sdxl'], mode: 'fewer-raters', order: 'task', category: 'Birds' }, 'Herons')).toBe(
      'Herons · sdxl · fewer than 3 raters · Birds',
    );
  });

  it('no dataset name, no tool, no category', () => {
    expect(queueFilterSummary({ datasetIds: [], mode: 'unlabelled-by-me', order: 'task' }, undefined)).toBe('— · all tools · not labelled by me');
    expect(queueFilterSummary({ datasetIds: ['d1'], toolIds: [], mode: 'all', order: 'suggested' }, 'Herons')).toBe('Herons · all tools · all items');
  });
});

describe('the scoring keys', () => {
  it('maps each key to its action, and nothing else', () => {
    const actions = ['3', 'j', 'ArrowRight', 'ArrowDown', 's', 'k', 'ArrowLeft', 'ArrowUp', 'u', 'f', '?', 'x', 'Enter'].map(labelKeyAction);
    expect(actions).toEqual(['score', 'next', 'next', 'next', 'next', 'previous', 'previous', 'previous', 'undo', 'feedback', 'help', null, null]);
  });

  it('only digits and moves wait for the item on screen; f and ? do not', () => {
    expect(['0', '9', 'j', 'k', 's', 'u', 'ArrowUp'].every(actsOnItem)).toBe(true);
    expect(['f', '?', 'z', 'Escape', '10'].some(actsOnItem)).toBe(false);
  });

  it('a score key pressed too early, or off the scale, leaves a note that says why', () => {
    expect(notReadyNote('4')).toBe('Key 4 was not used: the next item was not on screen yet. Press it again now.');
    expect(notReadyNote('j')).toBeNull();
    expect(noScoreNote('7', scoreKeys({ min: 1, max: 5, integer: true }), { min: 1, max: 5 })).toBe('Key 7 gives no score on this 1–5 scale: press 1 … 5.');
    expect(noScoreNote('0', scoreKeys({ min: 0, max: 1, integer: false }), { min: 0, max: 1 })).toBe(
      'Key 0 gives no score on this 0–1 scale: press 1 = 0 · 2 = 0.25 · 3 = 0.5 · 4 = 0.75 · 5 = 1.',
    );
  });

  it('the shortcuts help starts with this scale’s keys', () => {
    const rows = scoreShortcuts(scoreKeys({ min: 0, max: 1, integer: false }), { min: 0, max: 1 });
    expect(rows[0]).toEqual(['1 = 0 · 2 = 0.25 · 3 = 0.5 · 4 = 0.75 · 5 = 1', 'give that score (this dataset’s scale, 0–1) and go to the next item']);
    expect(rows.map(([key]) => key).slice(1)).toEqual(['j  →  ↓', 'k  ←  ↑', 's', 'z', 'u', 'f', 'Esc', '?']);
    expect(scoreShortcuts([], undefined)[0]).toEqual(['1 … 5', 'give that score (this dataset’s scale) and go to the next item']);
  });
});

describe('other raters', () => {
  it('none, one, several', () => {
    expect([0, 1, 3].map(otherRatersText)).toEqual(['no other rater yet', '1 other rater scored this', '3 other raters scored this']);
  });
});
