/**
 * Use case: evaluate a memory FILE (`toolmem eval --memory FILE`) the way the app evaluates a
 * stored memory (src/services/eval-memory.ts): one split, its own — the memory's training tasks
 * (`build.split.trainTasks`) on one side, the data's other tasks it never cited as evidence on the
 * other, in the seeded order of its build (core/eval/memory-split.ts) — and the memory methods
 * reading its entries (embedded with the memory's own model) and its fitted capability predictor.
 */
import type { Embedder } from '../core/embed';
import { ValidationError } from '../core/errors';
import type { ScoredPair } from '../core/eval/ground-truth';
import { storedMemorySplit } from '../core/eval/memory-split';
import type { TaskSplit } from '../core/eval/split';
import { fileVectors, memoryEntriesOf, type MemoryFile } from '../core/memory-format';
import type { MemorySnapshot } from '../core/predict/memory';
import { quote } from '../core/text/quote';

export interface MemoryFileEval {
  split: TaskSplit;
  memory: MemorySnapshot;
  /** Valid entries read. */
  entries: number;
}

export async function planMemoryFileEval(file: MemoryFile, data: readonly ScoredPair[], embedder: Embedder, opts: { maxTest?: number; signal?: AbortSignal } = {}): Promise<MemoryFileEval> {
  const name = `the memory ${quote(file.memory.name, 80)}`;
  const trainTasks = file.build.split.trainTasks;
  if (trainTasks.length === 0) throw new ValidationError(`${name} names no training tasks, so which tasks it never saw is unknown; it cannot be evaluated.`);
  const taskIds = [...new Set(data.map((p) => p.taskId))];
  const inData = new Set(taskIds);
  const train = trainTasks.filter((t) => inData.has(t));
  if (train.length === 0) throw new ValidationError(`None of the ${trainTasks.length} tasks ${name} learned from are in this data; give the data it was built on.`);
  const seen = file.tools.flatMap((t) => t.entries.flatMap((e) => e.evidenceTasks));
  const split = storedMemorySplit(taskIds, train, { seed: file.build.split.seed ?? 1, seen, ...(opts.maxTest !== undefined ? { maxTest: opts.maxTest } : {}) });
  if (split.test.length === 0) throw new ValidationError(`${name} learned from all ${taskIds.length} tasks of this data: no task it never saw is left to test it on.`);
  const entries = memoryEntriesOf(file).filter((e) => e.validTo === null);
  let vectors = fileVectors(file, embedder.id);
  if (!vectors && entries.length) {
    const batch = await embedder.embed(entries.map((e) => e.text), opts.signal ? { signal: opts.signal } : {});
    vectors = new Map(entries.map((e, i) => [e.id, batch.data.slice(i * batch.dim, (i + 1) * batch.dim)]));
  }
  const model = file.build.capability?.model;
  return { split, entries: entries.length, memory: { entries, vectors: vectors ?? new Map(), ...(model ? { capability: model } : {}) } };
}
