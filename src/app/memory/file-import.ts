/**
 * Memory import (new or merged) and the export of imported memories, over the app's repositories
 * and a `MemoryImportStore` (Dexie: one transaction). A file with any problem is answered with all
 * of them (JSON paths) and changes nothing. An imported memory exports from what the import kept
 * in `settings.imported`, so export → import → export is byte-identical (docs/memory-format.md).
 */
import { sha256Hex, type Embedder, type EmbeddingStore } from '../../core/embed';
import { NotFoundError, ValidationError } from '../../core/errors';
import { newId, slugify } from '../../core/ids';
import {
  boundIssues,
  canonicalMemoryFile,
  upgradeEvidenceIds,
  embeddingDimIssues,
  fileEntryIds,
  importedBuildOf,
  jsonPath,
  MemoryMergeError,
  parseMemoryFile,
  planMerge,
  planNewImport,
  readMemoryFile,
  serializeMemoryFile,
  storedMemoryToFile,
  type MemoryFile,
  type MemoryImportStore,
} from '../../core/memory-format';
import type { Repositories } from '../../core/repositories';
import type { Memory, MemoryEntry } from '../../core/records';
import type { CallContext, Handler } from '../../rpc';
import type { MemoryApi } from './api';
import type { ImportMemoryResponse } from './share-api';

export interface MemoryImportDeps {
  repos: Repositories;
  store: EmbeddingStore;
  importStore?: MemoryImportStore;
  currentModel(): Promise<string>;
  /** Output size of a model without running it (the worker reads it from the model's config). */
  modelDim?(model: string): Promise<number | null>;
  /** The embedder for a model name; its `dim` is the fallback for `modelDim`. */
  embedder?(model: string): Promise<Embedder>;
}

const modelName = (id: string) => id.replace(/@[0-9a-f]+$/, '');

/** Vectors of the valid entries from the embedding cache, when it holds every one of them. */
async function cachedVectors(store: EmbeddingStore, model: string, entries: readonly MemoryEntry[]): Promise<Map<string, Float32Array> | undefined> {
  const valid = entries.filter((e) => e.validTo === null);
  const found = await store.get(await Promise.all(valid.map(async (e) => ({ modelId: model, hash: await sha256Hex(e.text) }))));
  if (!valid.length || found.some((v) => !v)) return undefined;
  return new Map(valid.map((e, i) => [e.id, found[i]!]));
}

/**
 * Problems the file has against the app's embedding model: vectors of another size than the
 * model's would go into the cache and break every similarity (same message as `toolmem mcp`).
 * Only checked when the vectors would be stored, i.e. the file's model is the chosen one.
 */
async function modelIssues(deps: MemoryImportDeps, file: MemoryFile, storeVectors: boolean) {
  if (!file.embeddings || !storeVectors) return [];
  const model = modelName(file.embeddings.model);
  const dim = (await deps.modelDim?.(model)) ?? (deps.embedder ? (await deps.embedder(model)).dim : null);
  return dim === null ? [] : embeddingDimIssues(file, dim).map((i) => ({ path: jsonPath(i.path), message: i.message }));
}

interface ImportContext {
  deps: MemoryImportDeps;
  /** The export of built memories (src/app/memory/handlers.ts), used for every other memory. */
  baseExport: Handler<MemoryApi['exportMemory']>;
}

/** The memory worker's export, import and merge of memory files; `memoryFile`: a stored memory as a file. */
export function memoryImportHandlers(deps: MemoryImportDeps, baseExport: Handler<MemoryApi['exportMemory']>) {
  const c: ImportContext = { deps, baseExport };
  return {
    exportMemory: (req: MemoryApi['exportMemory']['req'], ctx: CallContext<never>) => exportAny(c, req, ctx),
    importMemory: ((req) => importMemoryFile(c, req)) satisfies Handler<MemoryApi['importMemory']>,
    memoryFile: (memoryId: string) => memoryFileOf(c, memoryId),
  };
}

/** An imported memory (with the edits made since) as a file. */
async function exportImported(deps: MemoryImportDeps, memory: Memory, history: boolean): Promise<string> {
  const { repos } = deps;
  const imported = importedBuildOf(memory)!;
  const entries = await repos.memories.allEntries(memory.id);
  // Entries made after the import (edits) name their tasks through the stored experiences.
  const unknown = [...new Set(entries.filter((e) => !Object.hasOwn(imported.entries, e.id)).flatMap((e) => e.evidence))];
  const found = await Promise.all(unknown.map((id) => repos.experiences.get(id)));
  const taskOf = new Map(found.flatMap((x) => (x ? [[x.id, x.taskId] as const] : [])));
  const vectors = imported.embeddings ? await cachedVectors(deps.store, memory.embeddingModel, entries) : undefined;
  const file = storedMemoryToFile(memory, imported, entries, {
    tools: await repos.tools.list(),
    history,
    taskOf: (id) => taskOf.get(id),
    ...(vectors ? { vectors } : {}),
  });
  return serializeMemoryFile(file);
}

/** Any stored memory as a file: an imported one here, a built one through `baseExport`. */
async function exportAny(c: ImportContext, req: MemoryApi['exportMemory']['req'], ctx: CallContext<never>): Promise<MemoryApi['exportMemory']['res']> {
  const { repos } = c.deps;
  const memory = await repos.memories.get(req.memoryId);
  // The built-memory export answers a plain object (it transfers nothing).
  if (!memory || !importedBuildOf(memory)) return (await c.baseExport(req, ctx)) as MemoryApi['exportMemory']['res'];
  return { fileName: `${slugify(memory.name)}.toolmem-memory.json`, text: await exportImported(c.deps, memory, req.history ?? false) };
}

/** A stored memory as a file (with history), whether it was built or imported. */
async function memoryFileOf(c: ImportContext, memoryId: string): Promise<MemoryFile> {
  const { text } = await exportAny(c, { memoryId, history: true }, { signal: new AbortController().signal, progress: () => undefined });
  return readMemoryFile(text);
}

/** Checks a memory file and writes it as a new memory or merges it into one (`dryRun`: only the check and the preview). */
async function importMemoryFile(
  c: ImportContext,
  { text, mode, memoryId, dryRun }: MemoryApi['importMemory']['req'],
): Promise<MemoryApi['importMemory']['res']> {
  const { deps } = c;
  const { repos } = deps;
  const parsed = parseMemoryFile(text);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  if (!deps.importStore) throw new ValidationError('Importing memories is not available here (no import store).');
  // Evidence ids of files written before schema v6 are put in the store's key order (legacy-evidence.ts).
  const file = upgradeEvidenceIds(canonicalMemoryFile(parsed.file));
  const storeVectors = !!file.embeddings && modelName(file.embeddings.model) === modelName(await deps.currentModel());
  const vectors = file.embeddings ? (storeVectors ? 'stored' : 'skipped') : 'none';
  const against = await modelIssues(deps, file, storeVectors);
  if (against.length) return { ok: false, issues: boundIssues(against) };
  const at = Date.now();
  const summary = (f: MemoryFile) => ({
    tools: f.tools.map((t) => ({ id: t.id, counts: { ...t.counts } })),
    entries: f.tools.reduce((s, t) => s + t.entries.length, 0),
  });
  if (mode === 'new') {
    const taken = await deps.importStore.taken(file.memory.id, fileEntryIds(file));
    const write = planNewImport(file, taken, newId('mem-'), at, storeVectors);
    if (!dryRun) await deps.importStore.writeImport(write);
    return {
      ok: true,
      written: !dryRun,
      mode,
      memoryId: write.memory.id,
      name: write.memory.name,
      ...summary(file),
      renamedIds: write.memory.id !== file.memory.id,
      merge: null,
      vectors,
    } satisfies ImportMemoryResponse;
  }
  const memory = memoryId ? await repos.memories.get(memoryId) : undefined;
  if (!memory) throw new NotFoundError(`There is no memory ${memoryId ?? '(none chosen)'} to merge into.`);
  const runId = typeof memory.settings.build === 'string' ? memory.settings.build : '';
  const run = runId && !importedBuildOf(memory) ? await repos.memories.getRun(runId) : undefined;
  if (run && run.state !== 'completed') throw new ValidationError(`The build of ${memory.name} is ${run.state}; let it finish before merging a file into it.`);
  const current = await memoryFileOf(c, memory.id);
  const rows = await repos.memories.allEntries(memory.id);
  const plan = (taken: ReadonlySet<string>) => planMerge(memory, rows, current, file, taken, () => newId('imp-'), at, storeVectors);
  let planned;
  try {
    planned = plan(new Set());
    // Added entries must not reuse ids of other memories' entries (ids are global in the store).
    const mine = new Set(rows.map((r) => r.id));
    const clash = (
      await deps.importStore.taken(
        '',
        planned.write.added.map((e) => e.id),
      )
    ).entries;
    for (const id of mine) clash.delete(id);
    if (clash.size) planned = plan(clash);
  } catch (err) {
    if (!(err instanceof MemoryMergeError)) throw err;
    return { ok: false, issues: [{ path: '$.memory.embeddingModel', message: err.message }] };
  }
  if (!dryRun) await deps.importStore.writeImport(planned.write);
  const merged = await (dryRun ? Promise.resolve(null) : memoryFileOf(c, memory.id));
  return {
    ok: true,
    written: !dryRun,
    mode,
    memoryId: memory.id,
    name: memory.name,
    ...summary(merged ?? file),
    renamedIds: false,
    merge: planned.preview,
    vectors,
  } satisfies ImportMemoryResponse;
}
