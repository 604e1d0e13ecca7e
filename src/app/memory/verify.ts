/**
 * Use case: check a memory file's claims on a dataset's experiences the memory never saw — every
 * task outside the memory's own training split (`build.split.trainTasks`). The same check the build
 * runs on its held-out tasks (src/core/capability/check.ts); `toolmem verify` prints it.
 */
import type { Embedder } from '../../core/embed';
import { checkMemory, type CheckReport } from '../../core/capability/check';
import { memoryEntriesOf, type MemoryFile } from '../../core/memory-format';
import { groundTruthExperiences } from '../../core/memory';
import type { Dataset, Experience } from '../../core/types';
import type { MemoryEntry } from '../../core/records';

export interface VerifyResult extends CheckReport {
  /** Unseen tasks checked on, and the training tasks left out. */
  unseenTasks: number;
  trainTasksSkipped: number;
  /** Per checked claim: the claimed (shrunk) delta, the delta observed on the unseen tasks and its 95% interval. */
  entries: {
    id: string;
    tool: string;
    verdict: string;
    n: number;
    claimed: number | null;
    observed: number | null;
    ci95: [number, number] | null;
    effect: { claimed: number | null; observed: number | null; ci95: [number, number] | null };
  }[];
}

async function embedAll(embedder: Embedder, texts: readonly string[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  if (texts.length === 0) return out;
  const batch = await embedder.embed(texts);
  texts.forEach((t, i) => out.set(t, batch.data.slice(i * batch.dim, (i + 1) * batch.dim)));
  return out;
}

export async function verifyMemoryFile(
  file: MemoryFile,
  dataset: Dataset,
  experiences: readonly Experience[],
  embedder: Embedder | null,
  at: number,
): Promise<VerifyResult> {
  const train = new Set(file.build.split.trainTasks);
  const truth = groundTruthExperiences(experiences, dataset.raterPolicy);
  const unseen = truth.filter((e) => !train.has(e.taskId));
  const entries: MemoryEntry[] = memoryEntriesOf(file);
  const snapshot = file.build.capability;
  // Vectors only where a rule needs them: theme facets, and entries without a facet (retrieval).
  const needs = entries.some((e) => (!e.facet && !e.profile) || e.facet?.rule.type === 'theme');
  const prompts = needs && embedder ? await embedAll(embedder, [...new Set(unseen.map((e) => e.prompt))]) : new Map<string, Float32Array>();
  const texts =
    needs && embedder
      ? await embedAll(
          embedder,
          entries.filter((e) => !e.facet && !e.profile).map((e) => e.text),
        )
      : new Map<string, Float32Array>();
  const report = checkMemory({
    entries,
    ...(snapshot ? { snapshot } : {}),
    unseen,
    scale: file.build.scale,
    promptVector: (p) => prompts.get(p),
    entryVector: (e) => texts.get(e.text),
    on: `${dataset.id}: tasks outside the memory's training split`,
    at,
  });
  return {
    ...report,
    unseenTasks: new Set(unseen.map((e) => e.taskId)).size,
    trainTasksSkipped: new Set(truth.filter((e) => train.has(e.taskId)).map((e) => e.taskId)).size,
    entries: report.checks.map((c) => {
      const effect = { claimed: c.claimed, observed: c.verdict.delta, ci95: c.verdict.ci95 };
      return { id: c.id, tool: c.toolId, verdict: c.verdict.verdict, n: c.verdict.n, ...effect, effect };
    }),
  };
}
