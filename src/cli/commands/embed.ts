/**
 * `toolmem embed`: embeds texts with the same model files the PWA serves (default the bundled
 * glove-100d, from public/models/) through transformers.js on onnxruntime-node.
 * Exit codes: 0 done, 1 usage error, 2 the model could not be loaded (or failed while embedding).
 */
import { cosine, rowOf, type EmbeddingBatch } from '../../core/embed';
import { createTransformersEmbedder, DEFAULT_LOCAL_MODEL, DEFAULT_MODELS_DIR } from '../../model-host/transformers-embedder';
import { normaliseModelId } from '../../model-host/embed-host';
import { toModelLoadError } from '../../model-host/embed-errors';
import { EXIT, command, strictArgs, UsageError, processIo, type Io } from '../io';

const USAGE = `Usage: toolmem embed --text TEXT [--text TEXT ...] [options]

Embeds each text with a sentence-embedding model and prints the vectors (unit length; all zeros
for a text with no known word).

Options:
  --text TEXT        a text to embed (repeat for several; required)
  --model ID         a model folder in the models directory (default: ${DEFAULT_LOCAL_MODEL}, bundled)
                     or a Hugging Face id like Xenova/all-MiniLM-L6-v2 (downloaded once, needs network)
  --models-dir DIR   where model folders are (default: the app's public/models)
  --dim N            output size of a hub model this command does not know
  --offline          never download: only model folders in the models directory
  --json             print { "model", "id", "dim", "embeddings": [[...], ...] }
  -h, --help         show this help

Exit codes: 0 done, 1 usage error, 2 the model could not be loaded.`;

interface ParsedArgs {
  texts: string[];
  model: string;
  modelsDir: string;
  dim?: number;
  offline: boolean;
  json: boolean;
  help: boolean;
}

function parse(args: string[]): ParsedArgs {
  const values = strictArgs(args, {
    text: { type: 'string', multiple: true },
    model: { type: 'string' },
    'models-dir': { type: 'string' },
    dim: { type: 'string' },
    offline: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const help = values.help ?? false;
  const texts = values.text ?? [];
  if (!help && texts.length === 0) throw new UsageError('give at least one --text.');
  let model = DEFAULT_LOCAL_MODEL;
  if (values.model !== undefined) {
    try {
      model = normaliseModelId(values.model);
    } catch (err) {
      throw new UsageError(`--model: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  let dim: number | undefined;
  if (values.dim !== undefined) {
    dim = Number(values.dim);
    if (!Number.isInteger(dim) || dim <= 0) throw new UsageError(`--dim '${values.dim}': expected a positive whole number.`);
  }
  return {
    texts,
    model,
    modelsDir: values['models-dir'] ?? DEFAULT_MODELS_DIR,
    ...(dim !== undefined ? { dim } : {}),
    offline: values.offline ?? false,
    json: values.json ?? false,
    help,
  };
}

const clip = (text: string, n = 48) => {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > n ? `${oneLine.slice(0, n - 1)}…` : oneLine;
};

/** A short human-readable summary: one line per text, and the similarity of each pair (up to 6 texts). */
export function formatEmbedSummary(id: string, texts: readonly string[], batch: EmbeddingBatch): string {
  const lines = [`${id} · ${batch.dim} dimensions · ${texts.length} ${texts.length === 1 ? 'text' : 'texts'}`];
  texts.forEach((text, i) => {
    const row = rowOf(batch, i);
    const zero = row.every((x) => x === 0);
    const head = Array.from(row.subarray(0, 4), (x) => x.toFixed(3)).join(', ');
    lines.push(`  ${String(i + 1).padStart(2)}  "${clip(text)}"  ${zero ? '(no known word: zero vector)' : `[${head}, …]`}`);
  });
  if (texts.length >= 2 && texts.length <= 6) {
    lines.push('cosine similarity:');
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) lines.push(`  ${i + 1}–${j + 1}  ${cosine(rowOf(batch, i), rowOf(batch, j)).toFixed(3)}`);
    }
  }
  return lines.join('\n');
}

async function run(opts: ParsedArgs, io: Io): Promise<number> {
  const hubId = opts.model.includes('/');
  let embedder;
  let batch: EmbeddingBatch;
  try {
    embedder = createTransformersEmbedder({
      model: opts.model,
      modelsDir: opts.modelsDir,
      allowNetwork: hubId && !opts.offline,
      ...(opts.dim !== undefined ? { dim: opts.dim } : {}),
    });
    await embedder.load();
    batch = await embedder.embed(opts.texts);
  } catch (cause) {
    const err = toModelLoadError(cause, opts.model, hubId ? 'hub' : 'local-folder');
    if (opts.json) io.out(JSON.stringify({ error: { name: err.name, message: err.message, model: opts.model } }, null, 2));
    io.err(`toolmem embed: ${err.message}`);
    return EXIT.unreadable;
  } finally {
    await embedder?.dispose?.().catch(() => undefined);
  }
  if (opts.json) {
    const embeddings = opts.texts.map((_, i) => Array.from(rowOf(batch, i)));
    io.out(JSON.stringify({ model: opts.model, id: embedder.id, dim: batch.dim, embeddings }));
  } else {
    io.out(formatEmbedSummary(embedder.id, opts.texts, batch));
  }
  return EXIT.ok;
}

/** The subcommand entry for the registry in ./index.ts. */
export const embedCommandSpec = command('embed', 'embed texts with the bundled (or a chosen) sentence-embedding model', USAGE, parse, run);

/** `toolmem embed …`; returns the exit code. `io` defaults to stdout/stderr. */
export async function embedCommand(argv: string[], io: Io = processIo): Promise<number> {
  return embedCommandSpec.run(argv, io);
}
