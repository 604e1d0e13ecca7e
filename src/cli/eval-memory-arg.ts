/**
 * `toolmem eval --memory FILE`: the memory file read and planned by the app's use case
 * (src/app/evaluate/memory-plan.ts, the plan a stored memory gets too) — its own split and its
 * entries embedded with its own model, which then embeds the prompts too (entry and task vectors
 * must come from one model).
 */
import { planMemoryFileEval, type MemoryFileEval } from '../app/evaluate/memory-plan';
import { ToolMemError } from '../core/errors';
import type { ScoredPair } from '../core/eval';
import { quote } from '../core/text/quote';
import { createTransformersEmbedder, type TransformersEmbedder } from '../model-host/transformers-embedder';
import { EXIT, type Io } from './io';
import { readMemoryArg } from './memory-arg';

export interface LoadedMemoryEval extends MemoryFileEval {
  embedder: TransformersEmbedder;
  /** One line for the text report. */
  summary: string;
}

export async function loadMemoryEval(path: string, data: readonly ScoredPair[], io: Io, opts: { maxTest?: number } = {}): Promise<LoadedMemoryEval | number> {
  const file = await readMemoryArg('eval', path, io);
  if (typeof file === 'number') return file;
  try {
    const embedder = createTransformersEmbedder({ model: file.memory.embeddingModel.split('@')[0]! });
    const plan = await planMemoryFileEval(file, data, embedder, opts);
    const summary =
      `Memory ${quote(file.memory.name, 80)} (${plan.entries} entries): its own split, ${plan.split.train.length} training tasks ` +
      `and ${plan.split.test.length} test tasks it never saw (seed ${plan.split.seed}).`;
    return { ...plan, embedder, summary };
  } catch (err) {
    if (!(err instanceof ToolMemError)) throw err;
    io.err(`toolmem eval: --memory ${path}: ${err.message}`);
    return EXIT.unreadable;
  }
}
