import type { Embedder } from '../core/embed';
import { ValidationError } from '../core/errors';
import { newId } from '../core/ids';
import { allToolPairs, evaluate, overSeeds, type EvalReport } from '../core/eval/evaluate';
import { topKAblation } from '../core/eval/ablation';
import { groundTruth, type ScoredPair } from '../core/eval/ground-truth';
import { toJsonReport } from '../core/eval/report';
import { splitSizes } from '../core/eval/split';
import { createPredictor, isMethodId, methodNeeds, NEIGHBOUR_METHODS, type MethodId } from '../core/predict/registry';
import { selectTool } from '../core/predict/select';
import type { Predictor } from '../core/predict/types';
import type { Repositories } from '../core/repositories';
import type { Run } from '../core/types';
import type { Handlers } from '../rpc';
import type { EvalApi, EvalResult } from './eval-api';

export interface EvalServiceDeps {
  repos: Repositories;
  /** The embedding model (for methods that use prompt vectors); null when none can be loaded. */
  embedder(): Promise<Embedder | null>;
}

function methodIds(methods: string[]): MethodId[] {
  const bad = methods.filter((m) => !isMethodId(m));
  if (bad.length) throw new ValidationError(`Unknown method(s): ${bad.join(', ')}.`);
  return methods as MethodId[];
}

async function promptVectors(embedder: Embedder | null, data: readonly ScoredPair[]): Promise<Map<string, Float32Array> | undefined> {
  if (!embedder) return undefined;
  const prompts = new Map<string, string>();
  for (const p of data) if (!prompts.has(p.taskId)) prompts.set(p.taskId, p.prompt);
  const ids = [...prompts.keys()];
  const batch = await embedder.embed(ids.map((id) => prompts.get(id)!));
  return new Map(ids.map((id, i) => [id, batch.data.slice(i * batch.dim, (i + 1) * batch.dim)]));
}

function summarise(report: EvalReport): Omit<EvalResult, 'ablation' | 'sizes' | 'scale'> {
  const spread: EvalResult['spread'] = {};
  const toolSpread: EvalResult['toolSpread'] = {};
  const points: EvalResult['points'] = {};
  const selection: Record<string, number> = {};
  for (const m of report.methods) {
    const pick = (k: 'mae' | 'rmse' | 'pearson') => overSeeds(report, (s) => s.methods[m]!.mean[k]);
    const [mae, rmse, pearson] = [pick('mae'), pick('rmse'), pick('pearson')];
    spread[m] = { mae: mae.mean, rmse: rmse.mean, pearson: pearson.mean, maeSd: mae.sd, rmseSd: rmse.sd, pearsonSd: pearson.sd };
    toolSpread[m] = {};
    for (const t of report.tools) {
      const per = (k: 'mae' | 'rmse' | 'pearson') => {
        const s = overSeeds(report, (seed) => seed.methods[m]!.tools[t]?.[k] ?? Number.NaN);
        return [s.mean, s.sd] as [number, number];
      };
      toolSpread[m]![t] = { mae: per('mae'), rmse: per('rmse'), pearson: per('pearson') };
    }
    points[m] = (report.seeds[0]?.methods[m]?.points ?? []).map(({ predicted, actual, toolId }) => ({ predicted, actual, toolId }));
    selection[m] = overSeeds(report, (s) => s.methods[m]!.selection.selected).mean;
  }
  const alwaysStrongerSelection = overSeeds(report, (s) => s.baselines.alwaysStrongerSelection.selected).mean;
  return { report: toJsonReport(report), spread, toolSpread, points, selection, alwaysStrongerSelection };
}

/**
 * Evaluations and predictions over the app's data, with the same core code as `toolmem eval`
 * (same split, seeds and methods give the same numbers). Fitted predictors are cached per
 * dataset and method until the dataset changes.
 */
export function createEvalHandlers(deps: EvalServiceDeps): Handlers<EvalApi> {
  const { repos } = deps;
  const fitted = new Map<string, { stamp: number; predictor: Predictor; trainedOn: number; vectors?: Map<string, Float32Array>; prompts: Map<string, string> }>();

  async function loadTruth(datasetId: string) {
    const dataset = await repos.datasets.get(datasetId);
    if (!dataset) throw new ValidationError(`The dataset ${datasetId} does not exist.`);
    const data = groundTruth(await repos.experiences.byDataset(datasetId), dataset.raterPolicy);
    return { dataset, data };
  }

  return {
    async evaluate(config, ctx): Promise<Run> {
      const methods = methodIds(config.methods);
      if (!methods.length) throw new ValidationError('Choose at least one method.');
      const { dataset, data } = await loadTruth(config.datasetId);
      const taskCount = new Set(data.map((p) => p.taskId)).size;
      if (taskCount < 2) throw new ValidationError(`${dataset.name} has ${taskCount} task(s) with a ground-truth score; an evaluation needs at least 2.`);
      const sizes = splitSizes(taskCount, { preset: dataset.preset, ...(config.train ? { train: config.train } : {}), ...(config.test ? { test: config.test } : {}) });
      const opts = config.k !== undefined ? { k: config.k } : {};
      const wantsVectors = methods.some((m) => methodNeeds(m, opts).vectors !== false);
      ctx.progress({ done: 0, total: 1, label: wantsVectors ? 'Embedding prompts' : 'Preparing' });
      const vectors = wantsVectors ? await promptVectors(await deps.embedder(), data) : undefined;
      const tools = [...new Set(data.map((p) => p.toolId))].sort();
      const seeds = Array.from({ length: config.seeds }, (_, i) => i + 1);
      const run: Run = { id: newId('eval-'), kind: 'eval', state: 'running', config: { ...config }, startedAt: Date.now() };
      await repos.runs.put(run);
      try {
        const total = seeds.length * methods.length;
        let done = 0;
        const report = await evaluate({
          data, scale: dataset.scale, sizes, seeds, toolPairs: allToolPairs(tools), keepPredictions: true, signal: ctx.signal,
          ...(vectors ? { vectors } : {}),
          methods: methods.map((id) => ({ id, create: () => { ctx.progress({ done: done++, total, label: `Seed ${Math.floor(done / methods.length) + 1}: ${id}` }); return createPredictor(id, opts); } })),
        });
        const result: EvalResult = { ...summarise(report), sizes: { train: sizes.train, test: sizes.test }, scale: { min: dataset.scale.min, max: dataset.scale.max, integer: dataset.scale.integer } };
        const neighbours = methods.filter((m) => NEIGHBOUR_METHODS.includes(m) && m !== 'memory');
        if (config.ablation && neighbours.length) {
          ctx.progress({ done: total, total: total + 1, label: 'Top-k ablation' });
          result.ablation = await topKAblation({
            data, scale: dataset.scale, sizes, seeds, toolPairs: allToolPairs(tools), signal: ctx.signal, ...(vectors ? { vectors } : {}),
            methods: neighbours, ks: Array.from({ length: 25 }, (_, k) => k),
            make: (m, k, cut) => createPredictor(m as MethodId, { ...opts, k, cut }),
          });
        }
        const doneRun: Run = { ...run, state: 'completed', metrics: result as unknown as Record<string, unknown>, finishedAt: Date.now() };
        await repos.runs.put(doneRun);
        return doneRun;
      } catch (err) {
        await repos.runs.put({ ...run, state: ctx.signal.aborted ? 'cancelled' : 'failed', error: err instanceof Error ? err.message : String(err), finishedAt: Date.now() });
        throw err;
      }
    },

    async predict(req) {
      const [method] = methodIds([req.method]);
      const { dataset, data } = await loadTruth(req.datasetId);
      const stamp = data.length;
      const key = `${req.datasetId}|${method}`;
      let model = fitted.get(key);
      if (!model || model.stamp !== stamp) {
        const wantsVectors = methodNeeds(method!).vectors !== false;
        const vectors = wantsVectors ? await promptVectors(await deps.embedder(), data) : undefined;
        const predictor = createPredictor(method!);
        predictor.fit({ scale: dataset.scale, examples: data.map((p) => ({ id: `${p.taskId}|${p.toolId}`, taskId: p.taskId, prompt: p.prompt, toolId: p.toolId, score: p.score, ratings: p.ratings, categories: p.categories, ...(vectors?.get(p.taskId) ? { vector: vectors.get(p.taskId)! } : {}) })) });
        model = { stamp, predictor, trainedOn: data.length, prompts: new Map(data.map((p) => [p.taskId, p.prompt])), ...(vectors ? { vectors } : {}) };
        fitted.set(key, model);
      }
      const embedder = model.vectors ? await deps.embedder() : null;
      const vector = embedder ? (await embedder.embed([req.prompt])).data : undefined;
      const tools = req.candidates?.length ? req.candidates : [...new Set(data.map((p) => p.toolId))].sort();
      const scores = new Map(data.map((p) => [`${p.taskId}|${p.toolId}`, p.score]));
      const predictions = tools.map((toolId) => {
        const p = model.predictor.predict({ taskId: '__query__', prompt: req.prompt, ...(vector ? { vector } : {}) }, toolId);
        return {
          toolId,
          score: p.score,
          evidence: p.evidence.slice(0, 5).map((e) => {
            const taskId = e.id.split('|')[0] ?? e.id;
            const s = scores.get(e.id);
            return { kind: e.kind, id: e.id, similarity: e.similarity, text: model.prompts.get(taskId) ?? e.id, ...(s !== undefined ? { score: s } : {}) };
          }),
        };
      });
      const selection = selectTool(predictions.map((p) => ({ toolId: p.toolId, score: p.score })), { margin: req.margin ?? 0, direction: dataset.scale.direction });
      return { method: method!, predictions, selection, trainedOn: model.trainedOn };
    },
  };
}
