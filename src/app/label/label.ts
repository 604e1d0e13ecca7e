import { exactAgreement, krippendorffAlpha } from '../../core/label/agreement';
import { buildQueue, itemsFromExperiences, resumeAt, selectionProgress } from '../../core/label/queue';
import { datasetStats } from '../../core/stats/dataset-stats';
import { pairwiseDatasetOf, pairwiseExperiences } from '../../core/label/pairwise-evidence';
import { CancelledError, NotFoundError, ValidationError } from '../../core/errors';
import { quote } from '../../core/text/quote';
import type { Repositories } from '../../core/repositories';
import type { Experience } from '../../core/types';
import type { CallContext, Handlers } from '../../rpc';
import type { LabelApi } from './api';
import { createEditHandlers } from '../edit/data-edits';
import { LabelQueues } from './queues';

/**
 * Queue building and agreement read every experience of the chosen datasets: done in the worker.
 * The hand edits (labels, choices, items, policies) are served here too: the page's one door for writes.
 */
export function createLabelHandlers(repos: Repositories): Handlers<LabelApi> {
  // The queue on screen, which every label is checked against (one per worker, so per tab).
  const queues = new LabelQueues();
  return {
    ...createEditHandlers(repos, queues),
    labelQueue: (req, ctx) => labelQueue(repos, queues, req, ctx),
    pairwiseDataset: ({ datasetId }) => pairwiseDataset(repos, datasetId),
    agreement: ({ datasetId }) => agreement(repos, datasetId),
  };
}

/**
 * Builds a queue; it is the current one from the call on, so a label on an older queue is refused
 * even while this one is still reading. A call that a newer one overtakes (or that the page
 * cancels) stops between reads and answers CancelledError.
 */
async function labelQueue(
  repos: Repositories,
  queues: LabelQueues,
  { filter, me, resume }: LabelApi['labelQueue']['req'],
  ctx: CallContext<never>,
): Promise<LabelApi['labelQueue']['res']> {
  const queue = queues.begin(filter.datasetIds, me);
  const stopIfStale = () => {
    ctx.signal.throwIfAborted();
    if (!queues.isCurrent(queue)) throw new CancelledError('A newer queue was asked for.');
  };
  const experiences: Experience[] = [];
  const created = [];
  for (const id of filter.datasetIds) {
    experiences.push(...(await repos.experiences.byDataset(id)));
    created.push(...(await repos.labels.items(id)));
    stopIfStale();
  }
  const { items, labels } = itemsFromExperiences(experiences, created);
  const ids = buildQueue(items, labels, filter, me);
  stopIfStale();
  queues.settle(queue, ids);
  return {
    queue,
    ids,
    start: resume ? resumeAt(ids, new Map(items.map((i) => [i.id, i])), resume.itemId, resume.since) : 0,
    ...selectionProgress(items, labels, filter, me),
    total: items.length,
    categories: [...new Set(items.flatMap((i) => i.categories))].sort(),
    tools: [...new Set(items.map((i) => i.toolId))].sort(),
  };
}

/**
 * The dataset's pairwise judgements as a derived 0–1 dataset (core/label/pairwise-evidence), made
 * again from every judgement on each call, so a memory built from it sees the latest ones. The old
 * derived rows go first: a row whose judgements were undone must not linger. The source is only read.
 * Not one transaction (the dataset's removal is its own): a failure part-way leaves the derived
 * dataset incomplete, never the source, and pressing the button again makes it whole.
 */
async function pairwiseDataset(repos: Repositories, datasetId: string): Promise<LabelApi['pairwiseDataset']['res']> {
  const source = await repos.datasets.get(datasetId);
  if (!source) throw new NotFoundError(`There is no dataset ${quote(datasetId)} (deleted in another tab?).`);
  if (source.preset === 'pairwise') throw new ValidationError(`${quote(source.name)} is already made from pairwise judgements.`);
  const prefs = await repos.labels.preferences(datasetId);
  if (!prefs.length) throw new ValidationError(`${quote(source.name)} has no pairwise judgements yet: compare pairs on the Label page first.`);
  const { items } = itemsFromExperiences(await repos.experiences.byDataset(datasetId), await repos.labels.items(datasetId));
  const tasks = new Map(items.map((i) => [i.taskId, { prompt: i.prompt, categories: i.categories }]));
  const at = Date.now();
  const dataset = pairwiseDatasetOf(source, at);
  const existing = await repos.datasets.get(dataset.id);
  if (existing && existing.preset !== 'pairwise')
    throw new ValidationError(`A dataset ${quote(dataset.id)} that is not made from pairwise judgements exists already: rename it first.`);
  const rows = pairwiseExperiences(prefs, tasks, { datasetId: dataset.id, importId: `pairwise-${at}`, at });
  if (existing) await repos.datasets.remove(dataset.id);
  await repos.datasets.put(existing ? { ...dataset, createdAt: existing.createdAt } : dataset);
  await repos.experiences.writeImportBatch(`pairwise-${at}`, rows, { fresh: true });
  return { datasetId: dataset.id, name: dataset.name, experiences: rows.length, tasks: new Set(rows.map((r) => r.taskId)).size, judgements: prefs.length };
}

async function agreement(repos: Repositories, datasetId: string): Promise<LabelApi['agreement']['res']> {
  const dataset = await repos.datasets.get(datasetId);
  if (!dataset) throw new Error(`Dataset ${datasetId} does not exist`);
  const rows = await repos.experiences.byDataset(datasetId);
  // Per-rater distributions reuse the per-tool statistics with the rater in the tool's place.
  const perRater = datasetStats(
    rows.map((r) => ({ ...r, toolId: r.rater })),
    dataset.scale,
  );
  const units = new Map<string, number[]>();
  for (const r of rows) {
    const key = `${r.taskId}\u0000${r.toolId}`;
    (units.get(key) ?? units.set(key, []).get(key)!).push(r.score);
  }
  const ratings = [...units.values()];
  return {
    datasetId,
    bins: perRater.bins,
    raters: perRater.tools.map((t) => ({ rater: t.toolId, n: t.n, histogram: t.histogram, mean: t.mean })).sort((a, b) => a.rater.localeCompare(b.rater)),
    units: ratings.filter((u) => u.length >= 2).length,
    exact: exactAgreement(ratings),
    alpha: {
      nominal: krippendorffAlpha(ratings, 'nominal').alpha,
      ordinal: krippendorffAlpha(ratings, 'ordinal').alpha,
      interval: krippendorffAlpha(ratings, 'interval').alpha,
    },
    policy: dataset.raterPolicy,
  };
}
