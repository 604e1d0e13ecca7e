/**
 * The `toolmem-memory` JSON format, version 2 (docs/memory-format.md, docs/memory-format.schema.json).
 * Version 2 adds the capability memory: `facet`, `effect` and `verdict` on entries and
 * `build.capability` (facets, the tool × facet matrix, the shared note, the fitted predictor).
 * Version 1 files (without them) still import, and an imported file exports with its own version.
 * One zod schema is the source of truth: import validates with it, the canonical serialiser orders
 * keys by it, and the JSON Schema file is generated from it (a test keeps the two in step).
 */
import { z } from 'zod';

export const MEMORY_FORMAT_KIND = 'toolmem-memory' as const;
export const MEMORY_FORMAT_VERSION = 4 as const;
/** Versions this reader accepts. */
export const MEMORY_FORMAT_VERSIONS = [1, 2, 3, 4] as const;

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

const interval = z.tuple([z.number(), z.number()]);

export const scaleSchema = z.strictObject({
  min: z.number(),
  max: z.number(),
  direction: z.enum(['higher-better', 'lower-better']),
  integer: z.boolean(),
});

/** What a claim is about: its applicability rule (src/core/capability/types.ts). */
export const facetSchema = z.strictObject({
  kind: z.enum(['category', 'cue', 'theme']),
  name: z.string().min(1),
  rule: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('category'), value: z.string() }),
    z.strictObject({ type: z.literal('cue'), cue: z.string().min(1) }),
    z.strictObject({ type: z.literal('theme'), minSimilarity: z.number().min(-1).max(1), keywords: z.array(z.string()) }),
  ]),
});

/** The claimed effect (deltaVsOthers null with one tool; ci95 is the headline delta's interval). */
export const effectSchema = z.strictObject({
  n: count,
  deltaOwn: z.number(),
  deltaVsOthers: z.number().nullable(),
  ci95: interval,
  q: z.number().min(0).max(1),
  ci95Own: interval.optional(),
  p: z.number().min(0).max(1).optional(),
  pOwn: z.number().min(0).max(1).optional(),
  qOwn: z.number().min(0).max(1).optional(),
  nOwn: count.optional(),
  mean: z.number().optional(),
  toolMean: z.number().optional(),
  rank: z.number().int().positive().optional(),
  of: z.number().int().positive().optional(),
  /** Version 3: the others' mean on the same tasks, the shrunk cell's lfsr, the raw estimate, the claim status. */
  othersMean: z.number().optional(),
  lfsr: z.number().min(0).max(1).optional(),
  raw: z.strictObject({ delta: z.number(), ci95: interval }).optional(),
  status: z.enum(['claim', 'tentative', 'none']).optional(),
  /** Version 4: the tool's usual lead over the others (all tasks) and, for pass/fail data, the claim on the logit scale. */
  usual: z.number().optional(),
  latent: z.strictObject({ delta: z.number(), ci95: interval }).optional(),
});

/** Version 3: a tool's overall entry (src/core/capability/types.ts `ToolProfile`). */
export const profileSchema = z.strictObject({
  n: count,
  mean: z.number(),
  rank: z.number().int().positive(),
  rankCi95: z.tuple([z.number().int().positive(), z.number().int().positive()]),
  of: z.number().int().positive(),
  bestShare: z.number().min(0).max(1),
  advantage: z.number(),
});

/** The claim checked on tasks the memory never saw. */
export const verdictSchema = z.strictObject({
  /** 'inconclusive' from version 3; 'weaker' only in files written before it. */
  verdict: z.enum(['holds', 'inconclusive', 'contradicted', 'untested', 'weaker']),
  n: count,
  delta: z.number().nullable(),
  ci95: interval.nullable(),
  on: z.string(),
  checkedAt: time,
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
  /** Version 2, capability entries: the applicability rule, the claimed effect, the verdict once checked. */
  facet: facetSchema.optional(),
  effect: effectSchema.optional(),
  verdict: verdictSchema.optional(),
  /** Version 3: the tool's overall entry. */
  profile: profileSchema.optional(),
});

/** A superseded or retired entry (only written when history is asked for). */
export const historyEntrySchema = z.strictObject({
  ...fileEntrySchema.shape,
  toolId: id,
  validTo: time,
  supersededBy: z.string().nullable(),
  retiredReason: z.string().optional(),
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

/** The joint ridge fit (src/core/capability/fit.ts `JointModel`): plain numbers. */
export const jointModelSchema = z.strictObject({
  tools: z.array(id),
  facets: z.array(facetSchema),
  mu: z.array(z.number()),
  freq: z.array(z.number()),
  beta: z.array(z.number()),
  gamma: z.array(z.array(z.number())),
  lambda: z.strictObject({ beta: z.number().nonnegative(), gamma: z.number().nonnegative() }),
  cv: z.array(z.tuple([z.number(), z.number(), z.number()])),
});

/** Version 4: the text detectors of the category facets (src/core/capability/detectors.ts `DetectorSet`). */
export const detectorSetSchema = z.strictObject({
  version: z.literal(1),
  vocabulary: z.array(z.string()),
  cues: z.array(z.string()),
  dim: count,
  vectorMean: z.array(z.number()),
  detectors: z.array(
    z.strictObject({
      value: z.string(),
      weights: z.array(z.number()),
      bias: z.number(),
      platt: z.tuple([z.number(), z.number()]),
      /** Held-out AUC of the detector (0.5 = chance). */
      auc: z.number().min(0).max(1),
      positives: count,
      n: count,
    }),
  ),
});

/** Version 4: one tool on a facet's leaderboard. */
export const leaderRowSchema = z.strictObject({
  toolId: id,
  n: count,
  mean: z.number(),
  rank: z.number().int().positive(),
  rankCi95: z.tuple([z.number().int().positive(), z.number().int().positive()]),
  pBest: z.number().min(0).max(1),
});

/** The fitted memory predictor as stored (src/core/capability/predictor.ts `SerializedCapabilityModel`). */
export const capabilityModelSchema = z.strictObject({
  version: z.literal(1),
  scale: scaleSchema,
  globalMean: z.number(),
  model: jointModelSchema,
  facets: z.array(z.strictObject({ facet: facetSchema, centroid: z.array(z.number()).optional() })),
  /** labels[tool][facet] = [contribution id, text] when the facet applies. */
  labels: z.array(z.array(z.tuple([z.string(), z.string()]))),
  order: z.array(count),
  orderGuard: z.boolean(),
  /** Version 4: twin facets credited to the facet they merged into, tag detectors, the fit for free text, pick claims. */
  twins: z.array(z.tuple([count, count])).optional(),
  detectors: detectorSetSchema.optional(),
  textModel: jointModelSchema.optional(),
  picks: z.array(z.strictObject({ facet: count, tool: count, over: count, probability: z.number().min(0).max(1) })).optional(),
});

/** Version 2: what a capability build knows beyond its entries (CapabilitySnapshot). */
export const capabilitySchema = z.strictObject({
  facets: z.array(z.strictObject({ facet: facetSchema, n: count, centroid: z.array(z.number()).optional() })),
  tools: z.array(id),
  cells: z.array(z.strictObject({ toolId: id, facet: count, effect: effectSchema, entryId: z.string().nullable() })),
  note: z
    .strictObject({
      text: z.string(),
      hard: z.array(z.string()),
      easy: z.array(z.string()),
      items: z.array(
        z.strictObject({
          id,
          facet: z.string(),
          kind: z.enum(['difficulty', 'ease']),
          n: count,
          delta: z.number(),
          ci95: interval,
          q: z.number(),
          text: z.string(),
        }),
      ),
    })
    .nullable(),
  report: z.strictObject({
    facetsTested: count,
    cellsTested: count,
    entries: count,
    belowMinN: count,
    notes: z.array(z.string()),
    claims: count.optional(),
    tentative: count.optional(),
    verification: z
      .strictObject({
        on: z.string(),
        precision: z.number().min(0).max(1).nullable(),
        tested: count,
        counts: z.strictObject({ holds: count, inconclusive: count.optional(), weaker: count.optional(), contradicted: count, untested: count }),
        /** Version 3: share of tested claims whose unseen sign agrees, share that hold, size calibration. */
        direction: z.number().min(0).max(1).nullable().optional(),
        confirmed: z.number().min(0).max(1).nullable().optional(),
        calibration: z.number().nullable().optional(),
      })
      .optional(),
    /** Version 4: the scale of the contrasts, the tag detectors' held-out AUC, the pick claims' check. */
    contrastScale: z.strictObject({ kind: z.enum(['score', 'logit']), why: z.string() }).optional(),
    detectors: z.array(z.strictObject({ facet: z.string(), auc: z.number().min(0).max(1), useful: z.boolean() })).optional(),
    pickVerification: z.strictObject({ tested: count, direction: z.number().min(0).max(1).nullable(), holds: count }).optional(),
  }),
  model: capabilityModelSchema.optional(),
  /** Version 4: leaderboards (all tasks, and per facet: `facet` indexes `facets`) and pick claims. */
  overall: z.array(leaderRowSchema).optional(),
  leaderboards: z.array(z.strictObject({ facet: count, rows: z.array(leaderRowSchema) })).optional(),
  picks: z
    .array(
      z.strictObject({
        facet: count,
        toolId: id,
        over: id,
        probability: z.number().min(0).max(1),
        lead: z.number(),
        ci95: interval,
        n: count,
        mean: z.number(),
        overMean: z.number(),
        pBest: z.number().min(0).max(1),
        text: z.string(),
        verdict: verdictSchema.optional(),
      }),
    )
    .optional(),
});

export const memoryFileSchema = z.strictObject({
  version: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(MEMORY_FORMAT_VERSION)]),
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
    /** Version 2: the capability analysis (facets, matrix, shared note, fitted predictor). */
    capability: capabilitySchema.optional(),
  }),
  tools: z.array(
    z.strictObject({
      id,
      name: z.string(),
      modality: z.enum(['text→text', 'text→image', 'other']),
      description: z.string(),
      counts: z.strictObject({ proficient: count, good: count, bad: count, weak: count }),
      entries: z.array(fileEntrySchema),
      /**
       * Cost of one call in US dollars and typical latency in ms (MCP `select_tool` limits and
       * cost weight): `card` = set on the tool's card (`example`: an illustrative demo price),
       * `data` = the median of `n` logged values. Absent when unknown.
       */
      cost: z
        .strictObject({ perCall: z.number().nonnegative(), source: z.enum(['card', 'data']), n: count.optional(), example: z.boolean().optional() })
        .optional(),
      latency: z.strictObject({ ms: z.number().nonnegative(), source: z.enum(['card', 'data']), n: count.optional() }).optional(),
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
export type MemoryFileCapability = z.infer<typeof capabilitySchema>;

/** The JSON Schema (draft 2020-12) of the format, as written to docs/memory-format.schema.json. */
export function memoryFileJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(memoryFileSchema, { target: 'draft-2020-12', io: 'input' }),
    $id: 'https://toolmem.studio/schemas/memory-format.schema.json',
    title: 'ToolMem Studio memory file (toolmem-memory, version 4; version 1, 2 and 3 files are valid too)',
  };
}
