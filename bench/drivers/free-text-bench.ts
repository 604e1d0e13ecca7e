/**
 * The free-text part of `npm run bench:quality` (issue #34), also runnable alone:
 *   npx tsx bench/drivers/free-text-bench.ts [--seeds 1,3]
 * A memory is built the way `toolmem build-memory` builds it (no LLM, 200 GenAI-Bench training
 * tasks, the seed's split), once with the skill tags and once without, and written to and read
 * back from its JSON file. Then, as an agent asks it — text only, never tags:
 *  1. RMSE on its unseen tasks (the split `toolmem eval --memory FILE` uses), each prompt given as
 *     text and its vector, against tool-mean on the same split. Goal: the tagged memory ≤ 1.10 and
 *     never worse than the untagged one.
 *  2. Over MCP (`predict_score`, the handlers `toolmem mcp` serves): DALLE_3's predicted lead over
 *     SDXL_2_1 on 8 negation prompts against 8 matched prompts without the negation (our own
 *     prompts, written for this check). Goal: the lead shrinks by ≥ 0.5 on the negation prompts,
 *     with DALLE_3's own negation entry among the contributions.
 * Seeds 1 and 3 are held out: the detectors (features, ridge, calibration) were tuned on seeds 101–112.
 * `--smoke`: seed 1, the bundled demo copy's first 160 tasks, 60 training tasks.
 */
import { buildMemoryFile, planBuild } from '../../src/app/memory/build';
import { planMemoryFileEval } from '../../src/app/evaluate/memory-plan';
import { createToolHandlers } from '../../src/cli/mcp/server';
import { loadData } from '../../src/cli/load-data';
import { CapabilityMemoryPredictor } from '../../src/core/capability/predictor';
import { groundTruth, table, type ScoredPair } from '../../src/core/eval';
import { NO_ENGINE, resolveEngine } from '../../src/core/llm';
import { readMemoryFile, serializeMemoryFile, type MemoryFile } from '../../src/core/memory-format';
import type { Dataset, Experience } from '../../src/core/types';
import { createTransformersEmbedder } from '../../src/model-host/transformers-embedder';
import { CLI_ENGINES } from '../../src/cli/llm-arg';
import { GENAI, seedRange } from './claims-bench';
import { loadLine, SMOKE, smokeTasks } from './bench-env';

/** Training tasks per build (the issue's 200; the smoke keeps 160 tasks in all). */
const TRAIN = SMOKE ? 60 : 200;

export const FREE_TEXT_GOALS = { rmse: 1.1, shrink: 0.5 };

/** Negation prompts and their matches: the same scene with the negation taken out. */
export const NEGATION_PAIRS: readonly (readonly [string, string])[] = [
  ['a cat not wearing a hat, three birds on a fence', 'a cat wearing a hat, three birds on a fence'],
  ['a bowl with no apples on a wooden table', 'a bowl with apples on a wooden table'],
  ['a street without any cars at night', 'a street with parked cars at night'],
  ['a man who is not holding an umbrella in the rain', 'a man holding an umbrella in the rain'],
  ['a bookshelf with no books next to a red chair', 'a bookshelf full of books next to a red chair'],
  ['a dog that is not sitting on the sofa', 'a dog sitting on the sofa'],
  ['a garden full of flowers but without any bees', 'a garden full of flowers and bees'],
  ['a clock without hands on a white wall', 'a clock with two hands on a white wall'],
];

interface Loaded {
  dataset: Dataset;
  experiences: Experience[];
  data: ScoredPair[];
}

async function load(tags: boolean): Promise<Loaded> {
  const loaded = await loadData({ data: GENAI.data, ...(tags ? { skills: GENAI.skills } : {}) });
  const { dataset } = loaded;
  const experiences = smokeTasks(loaded.experiences);
  return { dataset, experiences, data: groundTruth(experiences, dataset.raterPolicy) };
}

/** A memory file as `toolmem build-memory --train 200 --seed S` writes it, read back from its JSON. */
export async function buildFile(set: Loaded, seed: number, train = TRAIN): Promise<MemoryFile> {
  const embedder = createTransformersEmbedder();
  const engine = await resolveEngine(NO_ENGINE, CLI_ENGINES);
  const plan = planBuild(set.dataset, set.experiences, {
    split: { train, seed },
    engine: NO_ENGINE,
    embeddingModel: embedder.id,
    memoryId: `bench-${seed}`,
    runId: `bench-run-${seed}`,
    now: 0,
  });
  const { file } = await buildMemoryFile(plan, { dataset: set.dataset, experiences: set.experiences, engine, embedder });
  if (!file) throw new Error(`free-text bench: the build of seed ${seed} did not finish`);
  return readMemoryFile(serializeMemoryFile(file));
}

/** RMSE of the file's predictor and of tool-mean on its unseen tasks, asked as text (no tags). */
export async function textOnlyRmse(file: MemoryFile, textData: readonly ScoredPair[]): Promise<{ memory: number; toolMean: number; n: number }> {
  const embedder = createTransformersEmbedder({ model: file.memory.embeddingModel.split('@')[0]! });
  const plan = await planMemoryFileEval(file, textData, embedder);
  const predictor = CapabilityMemoryPredictor.fromModel(file.build.capability!.model!);
  const train = new Set(plan.split.train);
  const test = new Set(plan.split.test);
  const sums = new Map<string, { s: number; n: number }>();
  for (const p of textData) {
    if (!train.has(p.taskId)) continue;
    const a = sums.get(p.toolId) ?? { s: 0, n: 0 };
    sums.set(p.toolId, { s: a.s + p.score, n: a.n + 1 });
  }
  const rows = textData.filter((p) => test.has(p.taskId));
  const ids = [...new Set(rows.map((p) => p.taskId))];
  const prompts = new Map(rows.map((p) => [p.taskId, p.prompt]));
  const batch = await embedder.embed(ids.map((id) => prompts.get(id)!));
  const vectors = new Map(ids.map((id, i) => [id, batch.data.slice(i * batch.dim, (i + 1) * batch.dim)]));
  let se = 0;
  let seMean = 0;
  for (const p of rows) {
    // Text only: no categories, whatever the data carries.
    const pred = predictor.predict({ taskId: p.taskId, prompt: p.prompt, vector: vectors.get(p.taskId)! }, p.toolId).score;
    const m = sums.get(p.toolId)!;
    se += (pred - p.score) ** 2;
    seMean += (m.s / m.n - p.score) ** 2;
  }
  return { memory: Math.sqrt(se / rows.length), toolMean: Math.sqrt(seMean / rows.length), n: ids.length };
}

export interface NegationCheck {
  /** Mean predicted lead of DALLE_3 over SDXL_2_1 on the matched and on the negation prompts. */
  matched: number;
  negation: number;
  shrink: number;
  /** Negation prompts on which DALLE_3's contributions name its own negation entry. */
  cited: number;
  /** One example: the contribution lines of DALLE_3 on the first negation prompt. */
  example: string[];
}

/** DALLE_3 vs SDXL_2_1 over MCP predict_score on the negation prompts and their matches. */
export async function negationOverMcp(file: MemoryFile): Promise<NegationCheck> {
  const embedder = createTransformersEmbedder({ model: file.memory.embeddingModel.split('@')[0]! });
  const handlers = await createToolHandlers(file, embedder);
  const own = new Set(
    file.tools
      .find((t) => t.id === 'DALLE_3')!
      .entries.filter((e) => e.facet && /negation/i.test(e.facet.name))
      .map((e) => e.id),
  );
  const ask = async (tool: string, task: string) => {
    const answer = await handlers.call('predict_score', { tool, task });
    if (!('value' in answer)) throw new Error(`predict_score: ${answer.error}`);
    // As an MCP client reads it: the tool result's JSON text.
    return JSON.parse(JSON.stringify(answer.value)) as { score: number; contributions: { id: string; text: string; points: number; probability?: number }[] };
  };
  let matched = 0;
  let negation = 0;
  let cited = 0;
  let example: string[] = [];
  for (const [neg, plain] of NEGATION_PAIRS) {
    const dn = await ask('DALLE_3', neg);
    negation += dn.score - (await ask('SDXL_2_1', neg)).score;
    matched += (await ask('DALLE_3', plain)).score - (await ask('SDXL_2_1', plain)).score;
    if (dn.contributions.some((c) => own.has(c.id))) cited++;
    if (!example.length)
      example = dn.contributions.map(
        (c) =>
          `${c.points >= 0 ? '+' : ''}${c.points.toFixed(2)}${c.probability !== undefined ? ` (p ${c.probability.toFixed(2)})` : ''} ${c.text.slice(0, 110)}`,
      );
  }
  const k = NEGATION_PAIRS.length;
  return { matched: matched / k, negation: negation / k, shrink: (matched - negation) / k, cited, example };
}

const f3 = (x: number) => x.toFixed(3);

export async function freeTextBench(seeds: readonly number[] = [1, 3]): Promise<Record<string, unknown>> {
  const tagged = await load(true);
  const untagged = await load(false);
  const rows: string[][] = [];
  const checks: string[][] = [];
  const pooled = { tagged: 0, untagged: 0, toolMean: 0, shrink: 0, cited: 0, seeds: 0 };
  const out: Record<string, unknown> = {};
  for (const seed of seeds) {
    const withTags = await buildFile(tagged, seed);
    const without = await buildFile(untagged, seed);
    // Asked as text: the data without its tags, as an agent sends it.
    const a = await textOnlyRmse(withTags, untagged.data);
    const b = await textOnlyRmse(without, untagged.data);
    const neg = await negationOverMcp(withTags);
    const negPlain = await negationOverMcp(without);
    rows.push([String(seed), String(a.n), f3(a.memory), f3(b.memory), f3(a.toolMean), a.memory <= b.memory + 1e-9 ? 'yes' : 'no']);
    checks.push([String(seed), 'tags', f3(neg.matched), f3(neg.negation), f3(neg.shrink), `${neg.cited}/${NEGATION_PAIRS.length}`]);
    checks.push([String(seed), 'no tags', f3(negPlain.matched), f3(negPlain.negation), f3(negPlain.shrink), `${negPlain.cited}/${NEGATION_PAIRS.length}`]);
    pooled.tagged += a.memory ** 2;
    pooled.untagged += b.memory ** 2;
    pooled.toolMean += a.toolMean ** 2;
    pooled.shrink += neg.shrink;
    pooled.cited += neg.cited;
    pooled.seeds++;
    out[`seed${seed}`] = { tagged: a, untagged: b, negation: neg, negationUntagged: negPlain };
    if (seed === seeds[0])
      console.log(`DALLE_3 on "${NEGATION_PAIRS[0]![0]}" (tagged memory, seed ${seed}, MCP predict_score):\n  ${neg.example.join('\n  ')}`);
  }
  const rmse = (s: number) => Math.sqrt(s / pooled.seeds);
  const shrink = pooled.shrink / pooled.seeds;
  console.log(`\nFree text (issue #34): GenAI-Bench, ${TRAIN} training tasks, memory asked about its unseen tasks as text only (seeds ${seeds.join(', ')})`);
  console.log(table(['seed', 'unseen tasks', 'tagged memory RMSE', 'untagged memory RMSE', 'tool-mean RMSE', 'tagged ≤ untagged'], rows));
  console.log(table(['seed', 'memory', 'DALLE_3 − SDXL_2_1, matched', 'on negation', 'shrinks by', 'own negation entry cited'], checks));
  const r = rmse(pooled.tagged);
  const never = rows.every((row) => row[5] === 'yes');
  console.log(
    `Goals: tagged text-only RMSE ${f3(r)} pooled (≤ ${FREE_TEXT_GOALS.rmse}: ${r <= FREE_TEXT_GOALS.rmse ? 'met' : 'missed'}); ` +
      `never worse than untagged (${f3(rmse(pooled.untagged))}): ${never ? 'met' : 'missed'}; tool-mean ${f3(rmse(pooled.toolMean))}; ` +
      `DALLE_3's lead shrinks by ${f3(shrink)} on negation (≥ ${FREE_TEXT_GOALS.shrink}: ${shrink >= FREE_TEXT_GOALS.shrink ? 'met' : 'missed'}), its own negation entry cited on ${pooled.cited} of ${pooled.seeds * NEGATION_PAIRS.length}`,
  );
  console.log(loadLine());
  return { ...out, pooled: { tagged: r, untagged: rmse(pooled.untagged), toolMean: rmse(pooled.toolMean), shrink, cited: pooled.cited } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--seeds');
  await freeTextBench(seedRange(i >= 0 ? process.argv[i + 1] : undefined, SMOKE ? [1] : [1, 3]));
}
