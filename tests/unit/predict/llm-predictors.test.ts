/**
 * LLM predictors with recorded replies (ScriptedEngine): what evidence reaches the prompt (top-12
 * experiences, top-12 entries PER LEVEL), how replies are read, what is counted, cancellation.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, type ScoredPair } from '../../../src/core/eval';
import { CancelledError } from '../../../src/core/errors';
import { ScriptedEngine } from '../../../src/core/llm';
import {
  createLlmPredictor,
  FewShotLlmPredictor,
  GenericLlmPredictor,
  HybridPredictor,
  parseScoreReply,
  toPrediction,
  ToolMemLlmPredictor,
  type MemorySnapshot,
  type Predictor,
} from '../../../src/core/predict';
import type { PromptTool } from '../../../src/core/prompts';
import { LEVEL_VALUE, type Level, type ScoreScale } from '../../../src/core/types';
import type { MemoryEntry } from '../../../src/core/records';
import { ex, SCALE, set, v } from './helpers';
import { memoryEntryOf } from '../helpers/records';

const angle = (a: number) => v(Math.cos(a), Math.sin(a));
const lastUser = (engine: ScriptedEngine, call = -1) => engine.calls.at(call)!.messages.at(-1)!.content;

/** 15 tasks; task i lies at angle 0.05·i from the query direction (1, 0): similarity falls with i. */
function training() {
  const examples = [];
  for (let i = 0; i < 15; i++) {
    const taskId = `t${String(i).padStart(2, '0')}`;
    examples.push(ex(taskId, 'A', i % 2 === 0 ? 5 : 4, { vector: angle(0.05 * i) }));
    examples.push(ex(taskId, 'B', 1, { vector: angle(0.05 * i) }));
  }
  return set(examples);
}

function entry(id: string, toolId: string, level: Level): MemoryEntry {
  return memoryEntryOf({ id, toolId, level, value: LEVEL_VALUE[level], text: `${toolId} ${level} ${id}`, evidence: ['x'], support: 3 });
}

/** A: 14 good, 2 weak, 1 proficient (+ 1 retired good); B: 3 bad. */
function snapshot(): MemorySnapshot {
  const entries: MemoryEntry[] = [];
  const vectors = new Map<string, Float32Array>();
  const add = (e: MemoryEntry, a: number) => {
    entries.push(e);
    vectors.set(e.id, angle(a));
  };
  for (let i = 0; i < 14; i++) add(entry(`g${String(i).padStart(2, '0')}`, 'A', 'good'), 0.1 * i);
  add(entry('w0', 'A', 'weak'), 0.2);
  add(entry('w1', 'A', 'weak'), 0.4);
  add(entry('p0', 'A', 'proficient'), 0.3);
  add({ ...entry('old', 'A', 'good'), validTo: 5 }, 0);
  for (let i = 0; i < 3; i++) add(entry(`b${i}`, 'B', 'bad'), 0.1 * i);
  return { entries, vectors };
}

const query = { taskId: 'q', prompt: 'a red cube on a blue sphere', vector: angle(0) };

describe('prompts carry the right evidence', () => {
  it('generic-llm: the tool name, description and the task only', async () => {
    const engine = new ScriptedEngine(['{"score": 4}']);
    const p = new GenericLlmPredictor({
      engine,
      tools: new Map<string, PromptTool>([['A', { id: 'A', name: 'Painter', modality: 'text→image', description: 'paints pictures from text' }]]),
    });
    await p.fit(training());
    expect((await p.predict(query, 'A')).score).toBe(4);
    const user = lastUser(engine);
    expect(user).toContain('Painter (A), text→image — paints pictures from text');
    expect(user).toContain('New task: a red cube on a blue sphere');
    expect(user).toContain('1 (worst) to 5 (best)');
    expect(user).not.toMatch(/Past results|capability memory/);
    // Constrained decoding is asked for, bounded by the scale; temperature 0.
    expect(engine.calls[0]!.options.jsonSchema).toMatchObject({ name: 'score_prediction', schema: { properties: { score: { minimum: 1, maximum: 5 } } } });
    expect(engine.calls[0]!.options.temperature).toBe(0);
  });

  it('fewshot-llm: the 12 most similar experiences of THAT tool, best first, with their scores', async () => {
    const engine = new ScriptedEngine(['{"score": 4.5}']);
    const p = new FewShotLlmPredictor({ engine, similarity: 'dense' });
    await p.fit(training());
    const pred = await p.predict(query, 'A');
    const user = lastUser(engine);
    const lines = user.split('\n').filter((l) => /^\d+\. \(similarity/.test(l));
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe('1. (similarity 1.00) "prompt t00" → score 5');
    expect(lines[1]).toMatch(/^2\. \(similarity 1\.00\) "prompt t01" → score 4$/); // cos 0.05 = 0.9988
    expect(lines[11]).toContain('"prompt t11"');
    expect(user).not.toContain('prompt t12');
    expect(user).not.toContain('→ score 1'); // tool B's scores never leak into A's prompt
    expect(pred.evidence.map((e) => e.id).slice(0, 2)).toEqual(['t00|A', 't01|A']);
    expect(pred.evidence).toHaveLength(12);
  });

  it('toolmem-llm: the top 12 entries of EACH level of that tool, grouped by level, valid ones only', async () => {
    const engine = new ScriptedEngine(['{"score": 3}']);
    const p = new ToolMemLlmPredictor({ engine, memory: snapshot() });
    await p.fit(training());
    await p.predict(query, 'A');
    const user = lastUser(engine);
    const entryLines = user.split('\n').filter((l) => l.startsWith('- (similarity'));
    expect(entryLines.filter((l) => l.includes('A good'))).toHaveLength(12);
    expect(entryLines.filter((l) => l.includes('A weak'))).toHaveLength(2);
    expect(entryLines.filter((l) => l.includes('A proficient'))).toHaveLength(1);
    expect(user).not.toContain('A good g12'); // 13th and 14th good entries are the least similar
    expect(user).not.toContain('A good g13');
    expect(user).not.toContain(' old');
    expect(user).not.toContain('B bad');
    // Levels in order proficient → good → bad → weak, each with its meaning; empty levels omitted.
    const heads = user.split('\n').filter((l) => /^(Proficient|Good|Bad|Weak) — /.test(l));
    expect(heads.map((h) => h.split(' ')[0])).toEqual(['Proficient', 'Good', 'Weak']);
    expect(user).toContain('(similarity 1.00, 3 examples) A good g00');
  });

  it('toolmem-llm reads the capability analysis of the training split: the entries whose facet applies to the task', async () => {
    // 40 tasks: A fails the 20 with a negation ("without"), B scores the same everywhere.
    const examples = [];
    for (let i = 0; i < 40; i++) {
      const neg = i % 2 === 0;
      const taskId = `n${String(i).padStart(2, '0')}`;
      const prompt = neg ? `a plate number ${i} without any fork` : `a plate number ${i} with a fork`;
      examples.push(ex(taskId, 'A', neg ? 1 + (i % 4 === 0 ? 1 : 0) : 4 + (i % 3 === 0 ? 1 : 0), { prompt, vector: angle(0.01 * i) }));
      examples.push(ex(taskId, 'B', 3 + (i % 5 === 0 ? 1 : 0), { prompt, vector: angle(0.01 * i) }));
    }
    const engine = new ScriptedEngine(() => '{"score": 2}');
    const p = createLlmPredictor('toolmem-llm', { engine }) as ToolMemLlmPredictor;
    await p.fit(set(examples));
    const negEntry = p.memory!.entries.find((e) => e.toolId === 'A' && e.facet?.name === 'negation');
    expect(negEntry).toBeDefined();
    expect(['bad', 'weak']).toContain(negEntry!.level);
    expect(negEntry!.effect!.deltaOwn).toBeLessThan(0);
    const hit = await p.predict({ taskId: 'q1', prompt: 'a bowl without any spoon', vector: angle(0) }, 'A');
    expect(hit.evidence.map((e) => e.id)).toContain(negEntry!.id);
    expect(lastUser(engine)).toContain(negEntry!.text.slice(0, 40));
    // The facet does not apply to a prompt without a negation: the entry is not shown.
    const miss = await p.predict({ taskId: 'q2', prompt: 'a bowl with a spoon', vector: angle(0) }, 'A');
    expect(miss.evidence.map((e) => e.id)).not.toContain(negEntry!.id);
  });
});

describe('parseScoreReply', () => {
  const S = SCALE;
  const unit: ScoreScale = { min: 0, max: 1, direction: 'higher-better', integer: false };
  it.each([
    ['{"score": 4}', 4, false, 'json'],
    ['```json\n{"score": 3.5}\n```', 3.5, false, 'json'],
    ['Sure! {"score": "2"}', 2, false, 'json'],
    ['Score: 4/5', 4, false, 'text'],
    ["On a scale of 1 to 5 I'd expect 2.", 2, false, 'text'],
    ['Between 1-5: 3', 3, false, 'text'],
    ['I predict 4, maybe 5', 4, false, 'text'],
    ['{"score": 7}', 5, true, 'json'],
    ['0', 1, true, 'text'],
    ['It will probably get four out of five.', 4, false, 'word'],
    ['three and a half', 3.5, false, 'word'],
  ] as const)('%j → %d', (text, score, outOfRange, source) => {
    expect(parseScoreReply(text, S)).toEqual({ score, outOfRange, source });
  });
  it('reads percentages on a 0–1 scale; nothing usable → null', () => {
    expect(parseScoreReply('About 70%', unit)).toEqual({ score: 0.7, outOfRange: false, source: 'text' });
    expect(parseScoreReply('no idea, sorry', S)).toBeNull();
    expect(parseScoreReply('{"verdict": "good"}', S)).toBeNull();
    expect(parseScoreReply('', S)).toBeNull();
  });
});

describe('replies, fallbacks and counts', () => {
  it('clamps off-scale answers, falls back to the tool mean on unreadable ones, and counts both', async () => {
    const engine = new ScriptedEngine(['{"score": 9}', 'I cannot tell.', '{"score": 2}']);
    const p = new GenericLlmPredictor({ engine });
    await p.fit(training());
    const a = await p.predict(query, 'A');
    const b = await p.predict(query, 'A');
    const c = await p.predict(query, 'B');
    expect(a).toMatchObject({ score: 5, clamped: true });
    expect(b).toMatchObject({ score: 4.533333333333333, clamped: false }); // A's mean: (8·5 + 7·4) / 15
    expect(b.score).toBeCloseTo(68 / 15, 12);
    expect(c).toMatchObject({ score: 2, clamped: false });
    expect(p.llmStats()).toMatchObject({ calls: 3, parseFailures: 1, outOfRange: 1 });
    expect(p.llmStats().promptTokens).toBeGreaterThan(0);
  });

  it('hybrid: 0.4 · LLM + 0.6 · numeric; the numeric estimate alone when the reply is unreadable', async () => {
    const numeric: Predictor = { kind: 'sync', id: 'n', needs: {}, fit: () => undefined, predict: () => toPrediction(3, SCALE) };
    const engine = new ScriptedEngine(['{"score": 5}', 'hmm']);
    const p = new HybridPredictor({ engine, memory: snapshot(), numeric });
    await p.fit(training());
    expect((await p.predict(query, 'A')).score).toBeCloseTo(0.4 * 5 + 0.6 * 3, 12);
    expect((await p.predict(query, 'A')).score).toBe(3);
    expect(p.llmStats()).toMatchObject({ calls: 2, parseFailures: 1 });
    expect(() => new HybridPredictor({ engine, llmWeight: 1.5 })).toThrow(/between 0 and 1/);
  });

  it('engine errors propagate (a broken endpoint must not become tool-mean numbers)', async () => {
    const engine = new ScriptedEngine([{ httpError: { status: 500, body: 'boom' } }]);
    const p = new GenericLlmPredictor({ engine });
    await p.fit(training());
    await expect(p.predict(query, 'A')).rejects.toThrow(/HTTP 500/);
  });
});

describe('cancellation and the evaluation report', () => {
  const data: ScoredPair[] = [];
  for (let i = 0; i < 10; i++) {
    for (const [tool, s] of [
      ['A', 4],
      ['B', 2],
    ] as const)
      data.push({ taskId: `t${i}`, prompt: `task ${i}`, toolId: tool, score: s, ratings: [s], categories: [] });
  }

  it('an aborted signal stops the predictor with CancelledError', async () => {
    const engine = new ScriptedEngine(() => '{"score": 3}');
    const p = new GenericLlmPredictor({ engine });
    await p.fit(training());
    const ac = new AbortController();
    ac.abort();
    await expect(p.predict(query, 'A', { signal: ac.signal })).rejects.toBeInstanceOf(CancelledError);
  });

  it('cancelling mid-evaluation rejects with CancelledError after the calls already made', async () => {
    const ac = new AbortController();
    const engine = new ScriptedEngine((_m, call) => {
      if (call === 2) ac.abort();
      return '{"score": 3}';
    });
    await expect(
      evaluate({
        data,
        scale: SCALE,
        sizes: { train: 5, test: 5 },
        seeds: [1],
        signal: ac.signal,
        methods: [{ id: 'generic-llm', create: () => new GenericLlmPredictor({ engine }) }],
      }),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(engine.calls).toHaveLength(3); // the 4th call saw the aborted signal and was refused
  });

  it('counts reach the report; maxTestTasks limits the LLM method to the first N test tasks', async () => {
    const engine = new ScriptedEngine((_m, call) => (call % 3 === 0 ? 'no number here' : '{"score": 6}'));
    const report = await evaluate({
      data,
      scale: SCALE,
      sizes: { train: 5, test: 5 },
      seeds: [1, 2],
      methods: [
        { id: 'generic-llm', create: () => new GenericLlmPredictor({ engine }), maxTestTasks: 3 },
        { id: 'tool-mean', create: () => ({ kind: 'sync' as const, id: 'tool-mean', needs: {}, fit: () => undefined, predict: () => toPrediction(3, SCALE) }) },
      ],
    });
    const llm = report.seeds[0]!.methods['generic-llm']!;
    expect(llm.testTasks).toBe(3);
    expect(llm.tools.A!.n).toBe(3);
    expect(llm.llm).toMatchObject({ calls: 6, parseFailures: 2, outOfRange: 4 });
    expect(llm.clamped).toBe(4);
    expect(report.seeds[0]!.methods['tool-mean']!.testTasks).toBe(5);
    expect(engine.calls).toHaveLength(12);
  });
});
