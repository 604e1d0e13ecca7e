/**
 * Planning a memory import (pure): the rows to write for "import as a new memory" or "merge into
 * a memory", and a preview of what a merge adds and replaces. The store writes a plan in ONE
 * transaction (`MemoryImportStore.writeImport`), so a failed import leaves nothing behind.
 */
import { LEVEL_VALUE, type Level, type Tool } from '../types';
import type { Memory, MemoryEntry } from '../records';
import { setOwn } from './records';
import { mergeMemoryFiles, type MergeReport } from './merge';
import type { MemoryFile, MemoryFileEntry, MemoryFileHistoryEntry } from './schema';
import { fileToRows, importedBuildOf, type ImportedBuild } from './stored';

/** A vector for the embedding cache: the entry text's hash is computed by the caller. */
export interface ImportVector {
  text: string;
  vector: number[];
}

export interface MemoryImportWrite {
  mode: 'new' | 'merge';
  memory: Memory;
  /** Entries to add (valid ones and, for `new`, history). */
  added: MemoryEntry[];
  /** Entries replaced by a new version (merge: an entry that gained evidence). */
  superseded: { id: string; supersededBy: string }[];
  /** Tools of the file; only those missing from the app are created. */
  tools: Tool[];
  /** Entry vectors for the embedding cache under `vectorModel` (empty when not stored). */
  vectors: ImportVector[];
  vectorModel: string;
  at: number;
}

/** Storage side of an import (Dexie in the app): ids in use, and the all-or-nothing write. */
export interface MemoryImportStore {
  /** Which of these ids are taken: the memory id, and entry ids (in any memory). */
  taken(memoryId: string, entryIds: readonly string[]): Promise<{ memory: boolean; entries: Set<string> }>;
  writeImport(write: MemoryImportWrite): Promise<void>;
}

export interface MergePreview {
  added: { id: string; toolId: string; level: Level; text: string }[];
  /** Current entries replaced by a version with the file's evidence added. */
  replaced: { id: string; toolId: string; level: Level; text: string; evidenceAdded: number }[];
  unchanged: number;
  toolsAdded: string[];
  renamed: { from: string; to: string }[];
}

function toolsOf(file: MemoryFile, at: number): Tool[] {
  return file.tools.map((t) => ({ id: t.id, name: t.name, modality: t.modality, description: t.description, createdAt: at }));
}

function vectorsOf(file: MemoryFile, ids: ReadonlyMap<string, { text: string }>): ImportVector[] {
  if (!file.embeddings) return [];
  const out: ImportVector[] = [];
  for (const [id, v] of Object.entries(file.embeddings.vectors)) {
    const e = ids.get(id);
    if (e) out.push({ text: e.text, vector: v });
  }
  return out;
}

/**
 * The file as a new memory. Ids are kept (so export gives the file back) unless the memory id or
 * an entry id is already in use here; then the memory gets `freshId` and every entry id becomes
 * `<freshId>:<id>`.
 */
export function planNewImport(
  file: MemoryFile,
  taken: { memory: boolean; entries: ReadonlySet<string> },
  freshId: string,
  at: number,
  storeVectors: boolean,
): MemoryImportWrite {
  const clash = taken.memory || taken.entries.size > 0;
  const memoryId = clash ? freshId : file.memory.id;
  const { memory, entries } = fileToRows(file, memoryId, clash ? (id) => `${freshId}:${id}` : (id) => id);
  const byFileId = new Map(file.tools.flatMap((t) => t.entries).map((e) => [e.id, e]));
  return {
    mode: 'new',
    memory,
    added: entries,
    superseded: [],
    tools: toolsOf(file, at),
    vectors: storeVectors ? vectorsOf(file, byFileId) : [],
    vectorModel: file.memory.embeddingModel,
    at,
  };
}

/** All entry ids of a file (tools and history). */
export function fileEntryIds(file: MemoryFile): string[] {
  return [...file.tools.flatMap((t) => t.entries.map((e) => e.id)), ...(file.history ?? []).map((e) => e.id)];
}

/**
 * Merges `incoming` into the stored memory whose file is `current` (mergeMemoryFiles' rules).
 * Added entries and new versions start at `at`, so Undo reverts the merge. `takenElsewhere`: ids of
 * added entries already used by other memories (renamed `<id>~import`, `~import2`, …).
 * The memory keeps its id and name; afterwards it exports from `settings.imported`.
 */
export function planMerge(
  memory: Memory,
  rows: readonly MemoryEntry[],
  current: MemoryFile,
  incoming: MemoryFile,
  takenElsewhere: ReadonlySet<string>,
  newVersionId: (oldId: string) => string,
  at: number,
  storeVectors: boolean,
): { write: MemoryImportWrite; preview: MergePreview; report: MergeReport } {
  const { file: merged, report } = mergeMemoryFiles(current, incoming);
  const before = new Map(current.tools.flatMap((t) => t.entries.map((e) => [e.id, { toolId: t.id, e }] as const)));
  const rowById = new Map(rows.map((r) => [r.id, r]));
  const used = new Set([...rows.map((r) => r.id), ...takenElsewhere]);
  const preview: MergePreview = { added: [], replaced: [], unchanged: report.unchanged, toolsAdded: [...report.toolsAdded], renamed: [...report.renamed] };
  const added: MemoryEntry[] = [];
  const superseded: MemoryImportWrite['superseded'] = [];
  const prior = importedBuildOf(memory);
  const extras: ImportedBuild['entries'] = {};
  for (const tool of merged.tools) {
    for (const e of tool.entries) {
      const was = before.get(e.id);
      if (was && JSON.stringify(was.e) === JSON.stringify(e)) {
        setOwn(extras, e.id, extrasOf(e));
        continue;
      }
      let id = e.id;
      if (was) id = newVersionId(e.id);
      else if (takenElsewhere.has(id)) {
        id = freeId(e.id, used);
        preview.renamed.push({ from: e.id, to: id });
      }
      used.add(id);
      const row = mergedRow(e, id, was ? rowById.get(e.id) : undefined, { memoryId: memory.id, toolId: tool.id }, at);
      added.push(row);
      setOwn(extras, id, extrasOf(e));
      if (was) {
        superseded.push({ id: e.id, supersededBy: id });
        preview.replaced.push({ id: e.id, toolId: tool.id, level: e.level, text: e.text, evidenceAdded: e.evidence.length - was.e.evidence.length });
      } else preview.added.push({ id, toolId: tool.id, level: e.level, text: e.text });
    }
  }
  // History rows keep what they had (their evidence tasks as the current file names them).
  for (const h of current.history ?? []) setOwn(extras, h.id, extrasOf(h));
  const imported: ImportedBuild = {
    version: merged.version,
    build: structuredClone(merged.build),
    toolIds: merged.tools.map((t) => t.id),
    entries: extras,
    historyNotStored: prior?.historyNotStored ?? 0,
    embeddings: prior?.embeddings ?? false,
  };
  const write: MemoryImportWrite = {
    mode: 'merge',
    // A merge that brings nothing new leaves the memory's time alone (its export stays the same).
    memory: { ...memory, settings: { ...memory.settings, imported }, updatedAt: added.length || report.toolsAdded.length ? at : memory.updatedAt },
    added,
    superseded,
    tools: toolsOf(incoming, at),
    // The cache is keyed by text, so every incoming vector may go in (twins share their text).
    vectors: storeVectors ? vectorsOf(incoming, new Map(incoming.tools.flatMap((t) => t.entries).map((e) => [e.id, e]))) : [],
    vectorModel: incoming.memory.embeddingModel,
    at,
  };
  return { write, preview, report };
}

/** What a stored row does not hold and the memory's `settings.imported` keeps per entry, so its export gives the file back. */
function extrasOf(e: MemoryFileEntry | MemoryFileHistoryEntry): ImportedBuild['entries'][string] {
  return { evidenceTasks: e.evidenceTasks, ...(e.stats ? { stats: e.stats } : {}) };
}

/** `<id>~import`, `<id>~import2`, … : the first not in `used`. */
function freeId(id: string, used: ReadonlySet<string>): string {
  let free = id;
  for (let n = 1; used.has(free); n++) free = n === 1 ? `${id}~import` : `${id}~import${n}`;
  return free;
}

/**
 * The stored row of a merged entry, valid from `at`: a new version keeps the replaced row's memory, tool,
 * origin and pin (`old`); an added entry takes the file's.
 */
function mergedRow(e: MemoryFileEntry, id: string, old: MemoryEntry | undefined, owner: { memoryId: string; toolId: string }, at: number): MemoryEntry {
  return {
    ...(old ?? { ...owner, origin: e.origin, pinned: e.pinned }),
    id,
    level: e.level,
    value: LEVEL_VALUE[e.level],
    text: e.text,
    evidence: [...e.evidence],
    support: e.support,
    validFrom: at,
    validTo: null,
    supersededBy: null,
    createdAt: at,
    updatedAt: at,
    ...(e.facet ? { facet: e.facet } : {}),
    ...(e.effect ? { effect: e.effect } : {}),
    ...(e.verdict ? { verdict: e.verdict } : {}),
  };
}
