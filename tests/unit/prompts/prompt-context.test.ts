/**
 * What the prompts carry besides the example (issue #17 part 2): the update prompt's comparison
 * (tool mean, the other tools on the same task, the facet effects), the rubric and the scale's
 * meaning in the predict and feedback prompts, and one worked example each.
 */
import { describe, expect, it } from 'vitest';
import type { CapabilitySnapshot } from '../../../src/core/capability/types';
import { scaleMeaningOf } from '../../../src/core/import/presets/scale-meanings';
import { ScriptedEngine } from '../../../src/core/llm';
import { createBuildRun, InMemoryMemoryRepository, runBuild } from '../../../src/core/memory';
import { updateContext } from '../../../src/core/memory/update-context';
import { buildConfigFor, experience, hashEmbedder } from '../memory/helpers';
import { describeContext, feedbackMessages, predictMessages, updateMessages } from '../../../src/core/prompts';
import type { Experience, ScoreScale } from '../../../src/core/types';

const SCALE: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: true };
const LOWER: ScoreScale = { min: 0, max: 10, direction: 'lower-better', integer: false };
const tool = { id: 'A' };
const user = (m: { content: string }[]) => m.at(-1)!.content;
const system = (m: { content: string }[]) => m[0]!.content;

function exp(taskId: string, toolId: string, score: number, prompt = `prompt ${taskId}`): Experience {
  return { id: `${taskId}|${toolId}`, datasetId: 'd', taskId, toolId, prompt, score, rater: 'r', categories: [], createdAt: 0 } as unknown as Experience;
}

describe('update prompt: the example compared', () => {
  const context = {
    toolMean: { mean: 3.5, n: 4 },
    others: [
      { toolId: 'B', score: 4 },
      { toolId: 'C', score: 5 },
    ],
    effects: [{ facet: 'negation', deltaOwn: -0.8, deltaVsOthers: -0.5, n: 34 }],
  };

  it("carries the tool's mean, the example's rank among the tools on the task and the facet effects", () => {
    const text = user(updateMessages({ tool, scale: SCALE, entries: [], experience: { prompt: 'a cup without a handle', score: 2 }, context }));
    expect(text).toContain("- This tool's mean score: 3.50 over 4 examples; this example is 1.50 worse than that mean.");
    // Others' mean (4 + 5) / 2 = 4.5; both scored higher: rank 3 of 3.
    expect(text).toContain('- Other tools on the same task: B 4, C 5. This example ranks 3 of 3 and is 2.50 worse than their mean (4.50).');
    expect(text).toContain('  - negation: 0.80 worse than its own mean on such tasks; 0.50 worse than the other tools there (n = 34)');
    // The comparison follows the example.
    expect(text.indexOf('How this example compares:')).toBeGreaterThan(text.indexOf('New example:'));
  });

  it('says "about the same" when the tools agree, and reads a lower-better scale the right way round', () => {
    const same = describeContext({ others: [{ toolId: 'B', score: 2 }] }, 2, SCALE);
    expect(same).toContain('This example ranks 1 of 2 and is about the same as their mean (2).');
    // Lower is better: 3 against a mean of 5 is 2 points BETTER, and B's 6 ranks below it.
    const lower = describeContext({ toolMean: { mean: 5, n: 10 }, others: [{ toolId: 'B', score: 6 }] }, 3, LOWER);
    expect(lower).toContain('this example is 2 better than that mean.');
    expect(lower).toContain('This example ranks 1 of 2 and is 3 better than their mean (6).');
  });

  it('leaves the block out when nothing is known, and has one worked example', () => {
    const m = updateMessages({ tool, scale: SCALE, entries: [], experience: { prompt: 'p', score: 2 } });
    expect(user(m)).not.toContain('How this example compares');
    expect(system(m).match(/A worked example/g)).toHaveLength(1);
    expect(system(m)).toContain('every tool shares says the task is hard');
  });

  it("is worked out from the build's training data and the capability cells whose facet applies", () => {
    const experiences = new Map([
      ['A', [exp('t1', 'A', 2, 'a cup without a handle'), exp('t2', 'A', 4), exp('t3', 'A', 5)]],
      ['B', [exp('t1', 'B', 4), exp('t2', 'B', 3)]],
      ['C', [exp('t2', 'C', 1)]],
    ]);
    const effect = { n: 12, deltaOwn: -0.9, deltaVsOthers: -0.6, ci95: [-1.2, -0.3] as [number, number], q: 0.01 };
    const capability = {
      facets: [
        { facet: { kind: 'cue', name: 'negation', rule: { type: 'cue', cue: 'negation' } }, n: 12 },
        { facet: { kind: 'cue', name: 'counting', rule: { type: 'cue', cue: 'counting' } }, n: 12 },
      ],
      tools: ['A', 'B', 'C'],
      cells: [
        { toolId: 'A', facet: 0, effect, entryId: null },
        { toolId: 'A', facet: 1, effect: { ...effect, deltaOwn: 0.4 }, entryId: null },
        { toolId: 'B', facet: 0, effect, entryId: null },
      ],
      note: null,
      report: { facetsTested: 2, cellsTested: 3, entries: 0, belowMinN: 0, notes: [] },
    } as unknown as CapabilitySnapshot;
    const ctx = updateContext({ experience: exp('t1', 'A', 2, 'a cup without a handle'), experiences, capability });
    expect(ctx.toolMean).toEqual({ mean: 11 / 3, n: 3 });
    expect(ctx.others).toEqual([{ toolId: 'B', score: 4 }]); // C has no score on t1
    expect(ctx.effects).toEqual([{ facet: 'negation', deltaOwn: -0.9, deltaVsOthers: -0.6, n: 12 }]); // counting does not apply; B's cell is B's
    expect(updateContext({ experience: exp('t2', 'A', 4), experiences, capability }).effects).toBeUndefined();
  });
});

describe('the build runner sends the comparison with every update', () => {
  it("tool mean and the other tools' scores on the task (training data) reach the update prompt, with the scale's meaning", async () => {
    // ToolA scores 1 + (i % 5) on tasks 1…4 (2, 3, 4, 5: mean 3.5); ToolB scored 5 on every task.
    const a = [1, 2, 3, 4].map((i) => experience(i));
    const b = [1, 2, 3, 4].map((i) => experience(i, { toolId: 'ToolB', score: 5 }));
    const data = new Map([
      ['ToolA', a],
      ['ToolB', b],
    ]);
    const engine = new ScriptedEngine(() => '{"operations": []}');
    const run = await runBuild(createBuildRun('ctx', buildConfigFor(['ToolA', 'ToolB']), data, 0), {
      repo: new InMemoryMemoryRepository(),
      engine,
      embedder: hashEmbedder(),
      experiences: data,
      now: () => 1,
      scaleMeaning: 'Points: 1 = bad, 5 = perfect.',
    });
    expect(run.state).toBe('completed');
    const first = user(engine.calls[0]!.messages); // ToolA, task 1, score 2
    expect(first).toContain("- This tool's mean score: 3.50 over 4 examples; this example is 1.50 worse than that mean.");
    expect(first).toContain('- Other tools on the same task: ToolB 5. This example ranks 2 of 2 and is 3 worse than their mean (5).');
    expect(first).toContain('What the scores mean:\nPoints: 1 = bad, 5 = perfect.');
    const toolB = engine.calls.map((c) => user(c.messages)).find((t) => t.startsWith('Tool: ToolB'))!;
    expect(toolB).toContain("- This tool's mean score: 5 over 4 examples; this example is about the same as that mean.");
    expect(toolB).toContain('This example ranks 1 of 2');
  });
});

describe('predict and feedback prompts: rubric and the scale’s meaning', () => {
  const meaning = scaleMeaningOf('genai-bench')!;

  it('GenAI-Bench has a meaning for each point of its 1–5 scale; presets without a fixed meaning have none', () => {
    for (const p of ['1 =', '2 =', '3 =', '4 =', '5 =']) expect(meaning).toContain(p);
    expect(scaleMeaningOf('genai-bench-long')).toBe(meaning);
    expect(scaleMeaningOf('biggen')).toMatch(/rubric/);
    expect(scaleMeaningOf('generic')).toBeUndefined();
    expect(scaleMeaningOf(undefined)).toBeUndefined();
  });

  it('predict: the rubric and the scale meaning when given, neither otherwise; one worked example', () => {
    const rubric = 'Does the response cite its sources?\nScore 1: no sources. Score 5: every claim sourced.';
    const m = predictMessages({ tool, scale: SCALE, task: 'Summarise the report', evidence: { kind: 'none' }, rubric, scaleMeaning: meaning });
    expect(user(m)).toContain(`What the scores mean:\n${meaning}`);
    expect(user(m)).toContain(`Rubric the output will be scored by:\n${rubric}`);
    expect(user(m).indexOf('Rubric the output')).toBeGreaterThan(user(m).indexOf('New task:'));
    const bare = predictMessages({ tool, scale: SCALE, task: 'Summarise the report', evidence: { kind: 'none' } });
    expect(user(bare)).not.toMatch(/Rubric|What the scores mean/);
    expect(system(bare).match(/A worked example/g)).toHaveLength(1);
    expect(system(bare)).toContain('{"score": 2.5}');
  });

  it('feedback: the experience’s rubric and the scale meaning; one worked example', () => {
    const m = feedbackMessages({
      tool,
      scale: SCALE,
      scaleMeaning: meaning,
      experience: { prompt: 'Write a haiku', response: 'old pond', score: 2, rubric: 'Is it 5-7-5?' },
    });
    expect(user(m)).toContain('Rubric:\nIs it 5-7-5?');
    expect(user(m)).toContain(`What the scores mean:\n${meaning}`);
    expect(system(m).match(/A worked example/g)).toHaveLength(1);
    const bare = feedbackMessages({ tool, scale: SCALE, experience: { prompt: 'Write a haiku', score: 2 } });
    expect(user(bare)).not.toMatch(/Rubric|What the scores mean/);
  });

  it('the whole prompt stays bounded: a 10,000-character rubric and meaning are clipped', () => {
    const long = 'word '.repeat(2000);
    const m = predictMessages({ tool, scale: SCALE, task: long, evidence: { kind: 'none' }, rubric: long, scaleMeaning: long });
    expect(user(m).length).toBeLessThan(3000);
  });
});
