/**
 * The `toolmem-memory` JSON format, version 1 (docs/memory-format.md, docs/memory-format.schema.json).
 * One zod schema is the source of truth: import validates with it, the canonical serialiser orders
 * keys by it, and the JSON Schema file is generated from it (a test keeps the two in step).
 */
import { z } from 'zod';

export const MEMORY_FORMAT_KIND = 'toolmem-memory' as const;
export const MEMORY_FORMAT_VERSION = 1 as const;

export const LEVEL_NAMES = ['proficient', 'good', 'bad', 'weak'] as const;
const level = z.enum(LEVEL_NAMES);
const value = z.union([z.literal(2), z.literal(1), z.literal(-1), z.literal(-2)]);
const id = z.string().min(1);
const time = z.number().int().nonnegative();
const count = z.number().int().nonnegative();
/** Free-form settings/metrics (JSON values); serialised with sorted keys. */
const jsonRecord = z.record(z.string(), z.unknown());

export const clusterStatSchema = z.strictObject({
  tier: z.string(),
  size: count,
  mean: z.number(),
  overall: z.number(),
  d: z.number(),
  p: z.number(),
  q: z.number(),
});

export const fileEntrySchema = z.strictObject({
  id,
  level,
  value,
  text: z.string().min(1),
  origin: z.enum(['llm', 'stats', 'manual', 'critique']),
  support: count,
  /** Experience ids behind the entry. */
  evidence: z.array(z.string()),
  /** Task ids of the evidence. */
  evidenceTasks: z.array(z.string()),
  pinned: z.boolean(),
  validFrom: time,
  /** Evidence-cluster entries: the statistics behind the claim. */
  stats: clusterStatSchema.optional(),
});

/** A superseded or retired entry (only written when history is asked for). */
export const historyEntrySchema = z.strictObject({
  ...fileEntrySchema.shape,
  toolId: id,
  validTo: time,
  supersededBy: z.string().nullable(),
  retiredReason: z.string().optional(),
});

export const scaleSchema = z.strictObject({
  min: z.number(),
  max: z.number(),
  direction: z.enum(['higher-better', 'lower-better']),
  integer: z.boolean(),
});

/** Per-tool calibration of the numeric memory predictor: pred = mean + slope · signal. */
export const calibrationSchema = z.strictObject({
  /** The tool's mean training score. */
  mean: z.number(),
  /** Score units per level step of the retrieval signal (≥ 0). */
  slope: z.number().nonnegative(),
  /** Training tasks behind `mean`. */
  n: count,
});

export const memoryFileSchema = z.strictObject({
  version: z.literal(MEMORY_FORMAT_VERSION),
  kind: z.literal(MEMORY_FORMAT_KIND),
  memory: z.strictObject({
    id,
    name: z.string(),
    datasetIds: z.array(z.string()),
    /** Embedding model the entries are retrieved with (task vectors must use the same one). */
    embeddingModel: id,
    createdAt: time,
    updatedAt: time,
  }),
  build: z.strictObject({
    runId: z.string(),
    state: z.enum(['queued', 'running', 'paused', 'completed', 'failed', 'blocked', 'cancelled', 'not-run']),
    datasetId: z.string(),
    scale: scaleSchema,
    split: z.strictObject({ train: count.optional(), seed: count.optional(), trainTasks: z.array(z.string()) }),
    engine: z.string(),
    settings: jsonRecord,
    metrics: jsonRecord,
    /** Tool id → calibration; tools without one fall back to the scale midpoint and range / 4. */
    calibration: z.record(z.string(), calibrationSchema),
  }),
  tools: z.array(
    z.strictObject({
      id,
      name: z.string(),
      modality: z.enum(['text→text', 'text→image', 'other']),
      description: z.string(),
      counts: z.strictObject({ proficient: count, good: count, bad: count, weak: count }),
      entries: z.array(fileEntrySchema),
    }),
  ),
  /** Superseded or retired entries in the app (not all of them need be written). */
  historyCount: count,
  history: z.array(historyEntrySchema).optional(),
  /** Entry vectors, so a consumer with the same model can skip re-embedding. */
  embeddings: z
    .strictObject({
      model: id,
      dim: z.number().int().positive(),
      /** Entry id → unit vector (float32 values). */
      vectors: z.record(z.string(), z.array(z.number())),
    })
    .optional(),
});

export type MemoryFile = z.infer<typeof memoryFileSchema>;
export type MemoryFileEntry = z.infer<typeof fileEntrySchema>;
export type MemoryFileHistoryEntry = z.infer<typeof historyEntrySchema>;
export type MemoryFileTool = MemoryFile['tools'][number];
export type ToolCalibration = z.infer<typeof calibrationSchema>;

/** The JSON Schema (draft 2020-12) of the format, as written to docs/memory-format.schema.json. */
export function memoryFileJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(memoryFileSchema, { target: 'draft-2020-12', io: 'input' }),
    $id: 'https://toolmem.studio/schemas/memory-format.schema.json',
    title: 'ToolMem Studio memory file (toolmem-memory, version 1)',
  };
}
