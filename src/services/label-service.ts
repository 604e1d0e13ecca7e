import { exactAgreement, krippendorffAlpha } from '../core/label/agreement';
import { buildQueue, itemsFromExperiences, resumeAt, selectionProgress } from '../core/label/queue';
import { datasetStats } from '../core/stats/dataset-stats';
import type { Repositories } from '../core/repositories';
import type { Experience } from '../core/types';
import type { Handlers } from '../rpc';
import type { LabelApi } from './label-api';
import { createEditHandlers } from './edit-service';

/**
 * Queue building and agreement read every experience of the chosen datasets: done in the worker.
 * The hand edits (labels, choices, items, policies) are served here too: the page's one door for writes.
 */
export function createLabelHandlers(repos: Repositories): Handlers<LabelApi> {
  return {
    ...createEditHandlers(repos),
    async labelQueue({ filter, me, resume }) {
      const experiences: Experience[] = [];
      const created = [];
      for (const id of filter.datasetIds) {
        experiences.push(...(await repos.experiences.byDataset(id)));
        created.push(...(await repos.labels.items(id)));
      }
      const { items, labels } = itemsFromExperiences(experiences, created);
      const ids = buildQueue(items, labels, filter, me);
      return {
        ids,
        start: resume ? resumeAt(ids, new Map(items.map((i) => [i.id, i])), resume.itemId, resume.since) : 0,
        ...selectionProgress(items, labels, filter, me),
        total: items.length,
        categories: [...new Set(items.flatMap((i) => i.categories))].sort(),
        tools: [...new Set(items.map((i) => i.toolId))].sort(),
      };
    },

    async agreement({ datasetId }) {
      const dataset = await repos.datasets.get(datasetId);
      if (!dataset) throw new Error(`Dataset ${datasetId} does not exist`);
      const rows = await repos.experiences.byDataset(datasetId);
      // Per-rater distributions reuse the per-tool statistics with the rater in the tool's place.
      const perRater = datasetStats(rows.map((r) => ({ ...r, toolId: r.rater })), dataset.scale);
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
    },
  };
}
