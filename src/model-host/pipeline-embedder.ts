/**
 * An `Embedder` over a transformers.js feature-extraction pipeline, shared by the browser host
 * (onnxruntime-web, `embed-browser.ts`) and the Node host (onnxruntime-node, `transformers-embedder.ts`):
 * mean pooling and our zero-safe normalisation, the same numbers in both.
 *
 * The direct path calls the pipeline's tokenizer and its ONNX session itself:
 * - a static model built by scripts/build-model has a `token_sum` output (the pooling done in the
 *   graph); we fetch only that. onnxruntime-web copies each fetched output out of WASM memory, and
 *   for a lookup-table model copying `last_hidden_state` ([batch, sequence, dim]) costs about ten
 *   times the lookup (measured in a Chromium worker: 125 batches of 32 GenAI-Bench prompts took
 *   180–340 ms with it, 15–40 ms with `token_sum` only);
 * - any other model: `last_hidden_state`, pooled by {@link meanPoolInto}.
 * Anything the direct path cannot handle (extra inputs, non-float32 outputs, WebGPU outputs) goes
 * through the pipeline.
 */
import { Tensor, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { dict } from '../core/data-keys';
import { prop } from '../core/props';
import { normaliseRows, throwIfCancelled, TOKEN_SUM_OUTPUT, type EmbedOptions, type Embedder, type EmbeddingBatch } from '../core/embed/index';

/** The ONNX Runtime session transformers.js created, as far as we use it. */
interface OrtSessionLike {
  inputNames: readonly string[];
  outputNames: readonly string[];
  run(
    feeds: Record<string, unknown>,
    fetches?: readonly string[],
  ): Promise<Record<string, { dims: readonly number[]; type: string; data: unknown; dispose?(): void }>>;
}

interface TokenizerTensor {
  dims: number[];
  data: ArrayLike<number | bigint>;
  ort_tensor: unknown;
}

type Tokenize = (texts: string[], opts: { padding: boolean; truncation: boolean }) => Record<string, TokenizerTensor | undefined>;

/** transformers.js keeps the session at `model.sessions.model` (undeclared): checked, not assumed. */
function isOrtSession(x: unknown): x is OrtSessionLike {
  return Array.isArray(prop(x, 'inputNames')) && Array.isArray(prop(x, 'outputNames')) && typeof prop(x, 'run') === 'function';
}

/** The pipeline's tokenizer (undeclared on the pipeline type) is a callable object. */
function isTokenize(x: unknown): x is Tokenize {
  return typeof x === 'function';
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The attention mask as 0/1 bytes, read once. An int64 mask is read through an Int32Array view of
 * its low words (mask values are 0 or 1, so the high word is always 0): reading a BigInt64Array
 * element allocates a BigInt, once per token per batch otherwise.
 */
function maskBits(mask: ArrayLike<number | bigint>, n: number): Uint8Array {
  const bits = new Uint8Array(n);
  if (mask instanceof BigInt64Array && LITTLE_ENDIAN) {
    const words = new Int32Array(mask.buffer, mask.byteOffset, mask.length * 2);
    for (let i = 0; i < n; i++) bits[i] = words[i * 2] !== 0 ? 1 : 0;
  } else {
    for (let i = 0; i < n; i++) bits[i] = Number(mask[i]) !== 0 ? 1 : 0;
  }
  return bits;
}

/** Unmasked tokens per row. */
export function maskCounts(mask: ArrayLike<number | bigint>, batch: number, seq: number): Int32Array {
  const bits = maskBits(mask, batch * seq);
  const counts = new Int32Array(batch);
  for (let i = 0; i < bits.length; i++) counts[Math.floor(i / seq)]! += bits[i]!;
  return counts;
}

/** Divides each output row by its token count (a single token or none: left as is). */
function divideByCounts(out: Float32Array, rows: readonly number[], counts: Int32Array, dim: number): void {
  counts.forEach((count, b) => {
    const o = rows[b]! * dim;
    if (count > 1) for (let d = 0; d < dim; d++) out[o + d]! /= count;
  });
}

/** One batch to pool: its attention mask ([batch, seq]), the vector size, and the output rows it fills. */
export interface PoolInto {
  mask: ArrayLike<number | bigint>;
  batch: number;
  seq: number;
  dim: number;
  out: Float32Array;
  rows: readonly number[];
}

/**
 * Mean pooling over the attention mask, row-major and without per-element BigInt conversions
 * (transformers.js' `mean_pooling` converts the int64 mask inside its innermost loop, which costs
 * more than the whole model run of a static-embedding model). Adds into `out` (zeros) at `rows[i]`.
 */
export function meanPoolInto(hidden: ArrayLike<number>, { mask, batch, seq, dim, out, rows }: PoolInto): void {
  const bits = maskBits(mask, batch * seq);
  const counts = new Int32Array(batch);
  for (let i = 0; i < bits.length; i++) {
    if (!bits[i]) continue;
    const b = Math.floor(i / seq);
    counts[b]!++;
    const o = rows[b]! * dim;
    const h = i * dim;
    for (let d = 0; d < dim; d++) out[o + d]! += hidden[h + d]!;
  }
  divideByCounts(out, rows, counts, dim);
}

/**
 * The mean from per-text sums ([batch, dim], e.g. a static model's `token_sum`): each sum divided
 * by the text's unmasked token count, written into `out` at `rows[i]` (same rule as {@link meanPoolInto}).
 */
export function meanFromSumsInto(sums: ArrayLike<number>, { mask, batch, seq, dim, out, rows }: PoolInto): void {
  for (let b = 0; b < batch; b++) for (let d = 0; d < dim; d++) out[rows[b]! * dim + d] = sums[b * dim + d]!;
  divideByCounts(out, rows, maskCounts(mask, batch, seq), dim);
}

/** The tokenizer + session path of one model: its session, its tokenizer, its summed output if any, one call at a time. */
interface DirectPath {
  session: OrtSessionLike;
  tokenize: Tokenize;
  sumOutput: string | null;
  dim: number;
  serial: <T>(f: () => Promise<T>) => Promise<T>;
}

/** Writes the chunk's pooled rows into `data`; false when this model needs the pipeline instead. */
async function directChunk(
  { session, tokenize, sumOutput, dim, serial }: DirectPath,
  batchTexts: string[],
  rows: readonly number[],
  data: Float32Array,
): Promise<boolean> {
  const enc = tokenize(batchTexts, { padding: true, truncation: true });
  const ids = enc.input_ids;
  const mask = enc.attention_mask;
  if (!ids || !mask) return false;
  const feeds = dict<unknown>(); // keyed by the model's input names
  for (const name of session.inputNames) {
    const t = enc[name];
    // Same default as transformers.js: all-zero token types when the tokenizer gives none.
    if (t) feeds[name] = t.ort_tensor;
    else if (name === 'token_type_ids') feeds[name] = new Tensor('int64', new BigInt64Array(ids.data.length), ids.dims).ort_tensor;
    else return false;
  }
  const [, seq] = ids.dims;
  if (seq === undefined) return false;
  const outputs = await serial(() => (sumOutput ? session.run(feeds, [sumOutput]) : session.run(feeds)));
  try {
    if (sumOutput) {
      const s = outputs[sumOutput];
      if (!s || s.type !== 'float32' || !(s.data instanceof Float32Array) || s.dims[0] !== batchTexts.length || s.dims[1] !== dim) return false;
      meanFromSumsInto(s.data, { mask: mask.data, batch: batchTexts.length, seq, dim, out: data, rows });
      return true;
    }
    const h = outputs.last_hidden_state ?? outputs[session.outputNames[0]!];
    const [b, hSeq, cols] = h?.dims ?? [];
    if (!h || h.type !== 'float32' || !(h.data instanceof Float32Array) || b !== batchTexts.length || cols !== dim || hSeq !== seq) return false;
    meanPoolInto(h.data, { mask: mask.data, batch: b, seq, dim, out: data, rows });
    return true;
  } finally {
    for (const t of Object.values(outputs)) t.dispose?.();
  }
}

/**
 * `direct`: use the tokenizer + session path (on WASM and in Node; not on WebGPU, whose outputs
 * live on the GPU).
 */
export function pipelineEmbedder(extractor: FeatureExtractionPipeline, id: string, dim: number, batchSize = 32, direct = false): Embedder {
  const found = prop(prop(extractor.model, 'sessions'), 'model');
  const session = isOrtSession(found) ? found : undefined;
  const tokenizer = prop(extractor, 'tokenizer');
  const tokenize = isTokenize(tokenizer) ? tokenizer : undefined;
  const canDirect = direct && !!session && !!tokenize && session.inputNames.every((n) => n === 'input_ids' || n === 'attention_mask' || n === 'token_type_ids');
  const sumOutput = session?.outputNames.includes(TOKEN_SUM_OUTPUT) ? TOKEN_SUM_OUTPUT : null;
  // ONNX Runtime Web runs one session call at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const run = queue.then(f);
    queue = run.catch(() => undefined);
    return run;
  };

  const directPath = { session: session!, tokenize: tokenize!, sumOutput, dim, serial };
  let useDirect = canDirect;
  return {
    id,
    dim,
    async embed(texts: readonly string[], opts: EmbedOptions = {}): Promise<EmbeddingBatch> {
      const { signal, onProgress } = opts;
      throwIfCancelled(signal);
      const data = new Float32Array(texts.length * dim);
      // Blank texts have no tokens: they stay zero vectors and never reach the model.
      const work = texts.flatMap((t, i) => (t.trim() === '' ? [] : [i]));
      let done = texts.length - work.length;
      if (work.length === 0) onProgress?.({ done, total: texts.length });
      for (let start = 0; start < work.length; start += batchSize) {
        throwIfCancelled(signal);
        const chunk = work.slice(start, start + batchSize);
        const batchTexts = chunk.map((i) => texts[i]!);
        if (useDirect && !(await directChunk(directPath, batchTexts, chunk, data))) {
          useDirect = false;
          for (const i of chunk) data.fill(0, i * dim, (i + 1) * dim);
        }
        if (!useDirect) {
          const out = await serial(() => extractor(batchTexts, { pooling: 'mean', normalize: false }));
          const [rows, cols] = out.dims;
          if (rows !== chunk.length || cols !== dim) {
            throw new Error(`model ${id} returned [${out.dims.join(', ')}], expected [${chunk.length}, ${dim}]`);
          }
          const values = out.data as Float32Array;
          chunk.forEach((i, row) => data.set(values.subarray(row * dim, (row + 1) * dim), i * dim));
          out.dispose();
        }
        done += chunk.length;
        onProgress?.({ done, total: texts.length });
      }
      normaliseRows(data, dim);
      return { dim, count: texts.length, data };
    },
    async dispose() {
      await extractor.dispose();
    },
  };
}
