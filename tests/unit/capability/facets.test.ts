import { describe, expect, it } from 'vitest';
import { applies, discoverFacets, exampleText, facetKey, facetMembership, sharedPrefix, type TrainingFacetTask } from '../../../src/core/capability/facets';
import type { DiscoveredFacet } from '../../../src/core/capability/types';

const id = (i: number) => String(i).padStart(3, '0');

function unit(xs: number[]): Float32Array {
  const norm = Math.hypot(...xs);
  return Float32Array.from(xs, (x) => x / norm);
}

/** Five tight groups on orthogonal axes (12 tasks each), every prompt inside the same judge template. */
const TOPICS = [
  ['cats', 'kittens'],
  ['rockets', 'orbit'],
  ['bread', 'oven'],
  ['violin', 'concert'],
  ['glacier', 'ice'],
];
const BOILER = '###Task Description: evaluate the response strictly by the rubric. ###Instruction: ';
function themed(): TrainingFacetTask[] {
  const tasks: TrainingFacetTask[] = [];
  TOPICS.forEach(([a, b], g) => {
    for (let k = 0; k < 12; k++) {
      const i = g * 12 + k;
      const axis = Array.from({ length: 5 }, (_, d) => (d === g ? 1 : 0.08 * Math.sin(i * (d + 1))));
      tasks.push({ taskId: id(i), prompt: `${BOILER}Tell me about ${a} and ${k % 2 ? b : 'their history'} number ${k}.`, vector: unit(axis) });
    }
  });
  return tasks;
}

describe('category facets', () => {
  it('keeps the best-supported categories up to the cap and says what was dropped', () => {
    const tasks: TrainingFacetTask[] = [];
    // Category cK is on K + 1 tasks (c0 on 1 task … c9 on 10); "all" is on every task.
    for (let i = 0; i < 40; i++)
      tasks.push({ taskId: id(i), prompt: `task ${i}`, categories: ['all', ...Array.from({ length: 10 }, (_, k) => (i <= k ? `c${k}` : '')).filter(Boolean)] });
    const d = discoverFacets(tasks, { minTasks: 3, maxCategories: 4, themes: false });
    const cats = d.facets.filter((f) => f.facet.kind === 'category');
    expect(cats.map((f) => f.facet.name)).toEqual(['c9', 'c8', 'c7', 'c6']);
    expect(cats[0]!.taskIds).toHaveLength(10);
    expect(d.notes).toContain('Categories capped: 4 of 11 values kept, the best-supported (7 tasks or more); 4 more with 6 tasks or fewer dropped.');
    expect(d.notes).toContain('2 of 11 categories are on fewer than 3 training tasks: no facet.');
    expect(d.notes).toContain('On every training task, so no contrast: all.');
  });
  it('renames a category that a cue label already names, so facet names stay unique', () => {
    const tasks = Array.from({ length: 10 }, (_, i) => ({ taskId: id(i), prompt: i < 5 ? 'no cats here' : 'a dog', categories: i < 5 ? ['negation'] : [] }));
    const names = discoverFacets(tasks, { minTasks: 5 }).facets.map((f) => `${f.facet.kind}:${f.facet.name}`);
    expect(names).toContain('category:negation (tagged)');
    expect(names).toContain('cue:negation');
  });
});

describe('cue facets', () => {
  const prompts = [
    'A vase with no flowers.',
    'A dog without a leash.',
    'A cat that is not asleep.',
    'A field with no grass.',
    'A sky with no moon.',
    'A red apple.',
    'Two cats.',
    'A blue car.',
    'A tall tree.',
    'A quiet lake.',
  ];
  const tasks = prompts.map((prompt, i) => ({ taskId: id(i), prompt }));
  it('keeps cues firing on ≥ minTasks tasks, with the triggers its tasks contain and a typical example showing one', () => {
    const d = discoverFacets(tasks, { minTasks: 5, modality: 'image' });
    const neg = d.facets.find((f) => f.facet.rule.type === 'cue' && f.facet.rule.cue === 'negation')!;
    expect(neg.facet).toEqual({ kind: 'cue', name: 'negation', rule: { type: 'cue', cue: 'negation' } });
    expect(neg.taskIds).toEqual(['000', '001', '002', '003', '004']);
    expect(neg.triggers).toEqual(['no', 'not', 'without']);
    expect(neg.example).toMatch(/\bno\b/);
    expect(d.facets.some((f) => facetKey(f.facet) === 'cue:counting')).toBe(false); // one task only
    expect(d.facets.every((f) => f.facet.kind !== 'cue' || f.taskIds.length < tasks.length)).toBe(true);
  });
  it('leaves out cues of the other modality', () => {
    const code = Array.from({ length: 6 }, (_, i) => ({ taskId: id(i), prompt: i < 5 ? `Write a Python function number ${i}.` : 'Hello.' }));
    expect(discoverFacets(code, { minTasks: 5, modality: 'image' }).facets.map((f) => f.facet.name)).not.toContain('code');
    expect(discoverFacets(code, { minTasks: 5, modality: 'text' }).facets.map((f) => f.facet.name)).toContain('code');
  });
});

describe('theme facets', () => {
  const d = discoverFacets(themed(), { minTasks: 5 });
  const themes = d.facets.filter((f) => f.facet.kind === 'theme');
  it('finds the coherent groups and names them by their own words, never by the shared template', () => {
    expect(themes.map((f) => f.facet.name).sort()).toEqual(
      ['theme: bread, oven', 'theme: cats, kittens', 'theme: glacier, ice', 'theme: rockets, orbit', 'theme: violin, concert'].sort(),
    );
    for (const f of themes) {
      expect(f.facet.name).not.toMatch(/task|description|evaluate|rubric|instruction|response|history|number/i);
      expect(f.taskIds).toHaveLength(12);
      expect(f.coherence).toBeGreaterThan(0.9);
    }
  });
  it('picks minSimilarity so the rule selects exactly the members among the training tasks', () => {
    const tasks = themed();
    for (const f of themes) {
      const selected = tasks.filter((t) => applies(f, t)).map((t) => t.taskId);
      expect(selected).toEqual(f.taskIds);
    }
  });
  it('quotes examples without the text every prompt starts with', () => {
    expect(d.notes.some((n) => n.startsWith('Every training prompt starts with the same'))).toBe(true);
    for (const f of themes) {
      expect(f.example).not.toMatch(/Task Description|Tell me about/);
      expect(f.example).toMatch(/^(cats|rockets|bread|violin|glacier) and /);
    }
  });
  it('is deterministic: shuffled input gives the same facets', () => {
    const shuffled = themed().reverse();
    const again = discoverFacets(shuffled, { minTasks: 5 });
    expect(again.facets.map((f) => [f.facet, f.taskIds, f.typicalTaskId])).toEqual(d.facets.map((f) => [f.facet, f.taskIds, f.typicalTaskId]));
  });
  it('does not keep two unrelated groups merged into one, even when the size cap would allow it', () => {
    const topics = ['cats', 'rockets', 'bread', 'violin', 'glacier', 'tulips', 'trains', 'chess'];
    const tasks = topics.flatMap((w, g) =>
      Array.from({ length: 10 }, (_, k) => {
        const i = g * 10 + k;
        return {
          taskId: id(i),
          prompt: `About ${w}, part ${k}.`,
          vector: unit(Array.from({ length: 8 }, (_, d) => (d === g ? 1 : 0.3 * Math.sin(i * (d + 2))))),
        };
      }),
    );
    const found = discoverFacets(tasks, { minTasks: 5, theme: { maxShare: 0.5 } }).facets.filter((f) => f.facet.kind === 'theme');
    expect(found.map((f) => f.facet.name).sort()).toEqual(topics.map((w) => `theme: ${w}`).sort());
    expect(found.every((f) => f.taskIds.length === 10)).toBe(true);
  });
  it('drops a group whose words are all common (no name)', () => {
    const same = themed().map((t) => ({ ...t, prompt: `${BOILER}Tell me more.` }));
    expect(discoverFacets(same, { minTasks: 5 }).facets.filter((f) => f.facet.kind === 'theme')).toEqual([]);
  });
  it('says so when no task has a vector', () => {
    const plain = themed().map(({ taskId, prompt }) => ({ taskId, prompt }));
    expect(discoverFacets(plain, { minTasks: 5 }).notes).toContain('Themes: none (the tasks carry no prompt vectors).');
  });
});

describe('applies on new tasks', () => {
  const cue: DiscoveredFacet = { facet: { kind: 'cue', name: 'negation', rule: { type: 'cue', cue: 'negation' } }, taskIds: [] };
  const cat: DiscoveredFacet = { facet: { kind: 'category', name: 'counting', rule: { type: 'category', value: 'counting' } }, taskIds: [] };
  const theme = {
    facet: { kind: 'theme' as const, name: 'theme: ice', rule: { type: 'theme' as const, minSimilarity: 0.9, keywords: ['ice'] } },
    centroid: unit([1, 0, 0]),
  };
  it('evaluates cue rules on free text typed in Predict', () => {
    expect(applies(cue, { prompt: 'a garden without a fence' })).toBe(true);
    expect(applies(cue, { prompt: 'a notebook on a desk' })).toBe(false);
  });
  it('needs the category tag for category rules (free text has none)', () => {
    expect(applies(cat, { prompt: 'three cats' })).toBe(false);
    expect(applies(cat, { prompt: 'three cats', categories: ['counting'] })).toBe(true);
  });
  it('needs a vector for theme rules', () => {
    expect(applies(theme, { prompt: 'ice', vector: unit([1, 0.1, 0]) })).toBe(true);
    expect(applies(theme, { prompt: 'ice', vector: unit([0.5, 1, 0]) })).toBe(false);
    expect(applies(theme, { prompt: 'ice' })).toBe(false);
    expect(applies({ facet: theme.facet }, { prompt: 'ice', vector: unit([1, 0, 0]) })).toBe(false);
  });
  it('membership gives one 0/1 row per facet, equal to applies', () => {
    const tasks = [{ prompt: 'no ice', vector: unit([1, 0, 0]) }, { prompt: 'ice', categories: ['counting'] }, { prompt: 'a dog' }];
    const rows = facetMembership([cue, cat, theme as DiscoveredFacet, cue], tasks);
    expect(rows.map((r) => [...r])).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [1, 0, 0],
      [1, 0, 0],
    ]);
  });
});

describe('shared prefix', () => {
  it('is the boilerplate at a word boundary, and nothing when short or when a prompt is all prefix', () => {
    expect(sharedPrefix([`${BOILER}a`, `${BOILER}b c`])).toBe(BOILER);
    expect(sharedPrefix(['A cat on a mat', 'A cat in a hat'])).toBe('');
    expect(sharedPrefix([BOILER, `${BOILER}x`])).toBe('');
    expect(exampleText(`${BOILER}Tell   me\nmore.`, BOILER)).toBe('Tell me more.');
  });
});
