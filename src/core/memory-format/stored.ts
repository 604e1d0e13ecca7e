/**
 * A memory file as app rows, and back. An imported memory has no build Run and usually none of the
 * experiences it was learned from, so what its export needs beyond the rows (the `build` section
 * with calibration and training tasks, each entry's evidence task ids and cluster statistics, the
 * tool list, the history not carried in the file) is kept in `Memory.settings.imported`. Export of
 * such a memory (`storedMemoryToFile`) then gives back the imported file byte for byte.
 */
import type { Tool } from '../types';
import type { Memory, MemoryEntry } from '../records';
import { taskOfExperienceKey } from '../ids';
import type { CapabilitySnapshot } from '../capability/types';
import type { MemoryFile, MemoryFileCapability, MemoryFileEntry } from './schema';
import { fileEmbeddings, fileMemoryHeader, fileToolHeader, toFileEntry, toHistoryEntry } from './file-parts';
import { fileEntryRow } from './predictor';
import { recordMap, setOwn } from './records';
import { canonicalMemoryFile } from './serialize';
import type { ImportedBuild } from './imported';

// The stored shape lives in imported.ts (records.ts names it); re-exported for callers.
export type { ImportedBuild };

export function importedBuildOf(memory: Pick<Memory, 'settings'>): ImportedBuild | null {
  const v = memory.settings.imported;
  return v && typeof v === 'object' && 'build' in v ? (v as ImportedBuild) : null;
}

/** A file's capability section as the Memory row holds it (entry ids as stored: renamed on collision). */
export function capabilityFromFile(cap: MemoryFileCapability, idOf: (fileEntryId: string) => string): CapabilitySnapshot {
  const out = structuredClone(cap) as CapabilitySnapshot;
  for (const c of out.cells) if (c.entryId !== null) c.entryId = idOf(c.entryId);
  return out;
}

/** The rows of a file: its memory (with `settings.imported`) and entries, valid and history. */
export function fileToRows(file: MemoryFile, memoryId: string, idOf: (fileEntryId: string) => string): { memory: Memory; entries: MemoryEntry[] } {
  const extras: ImportedBuild['entries'] = {};
  const row = (toolId: string, e: MemoryFileEntry): MemoryEntry => {
    const id = idOf(e.id);
    setOwn(extras, id, { evidenceTasks: [...e.evidenceTasks], ...(e.stats ? { stats: { ...e.stats } } : {}) });
    return fileEntryRow(e, memoryId, toolId, id);
  };
  const entries = file.tools.flatMap((t) => t.entries.map((e) => row(t.id, e)));
  for (const h of file.history ?? []) {
    const { toolId, validTo, supersededBy, retiredReason, ...e } = h;
    entries.push({
      ...row(toolId, e),
      validTo,
      supersededBy: supersededBy === null ? null : idOf(supersededBy),
      updatedAt: validTo,
      ...(retiredReason !== undefined ? { retiredReason } : {}),
    });
  }
  // Tool ids are data: a null-prototype record written with setOwn (records.ts).
  const toolCosts: NonNullable<ImportedBuild['toolCosts']> = Object.create(null);
  for (const t of file.tools)
    if (t.cost || t.latency) setOwn(toolCosts, t.id, { ...(t.cost ? { cost: { ...t.cost } } : {}), ...(t.latency ? { latency: { ...t.latency } } : {}) });
  const imported: ImportedBuild = {
    version: file.version,
    build: structuredClone(file.build),
    toolIds: file.tools.map((t) => t.id),
    entries: extras,
    historyNotStored: file.historyCount - (file.history?.length ?? 0),
    embeddings: file.embeddings !== undefined,
    ...(Object.keys(toolCosts).length ? { toolCosts } : {}),
  };
  const m = file.memory;
  return {
    memory: {
      id: memoryId,
      name: m.name,
      datasetIds: [...m.datasetIds],
      embeddingModel: m.embeddingModel,
      settings: { imported },
      ...(file.build.capability ? { capability: capabilityFromFile(file.build.capability, idOf) } : {}),
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
    },
    entries,
  };
}

export interface StoredToFileOptions {
  /** Tool descriptions from the app; tools not listed get their id, `other`, ''. */
  tools?: readonly Pick<Tool, 'id' | 'name' | 'modality' | 'description'>[];
  history?: boolean;
  /** Entry vectors (model = memory.embeddingModel). */
  vectors?: ReadonlyMap<string, ArrayLike<number>>;
  /** Task of an experience id, for entries made after the import (edited versions). */
  taskOf?: (experienceId: string) => string | undefined;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The file of a memory that holds `settings.imported` (canonical; see the header). */
export function storedMemoryToFile(memory: Memory, imported: ImportedBuild, entries: readonly MemoryEntry[], options: StoredToFileOptions = {}): MemoryFile {
  const valid = entries.filter((e) => e.validTo === null);
  const old = entries.filter((e) => e.validTo !== null);
  const taskOf = options.taskOf ?? (() => undefined);
  // Entry ids are data: looked up in a Map, never on the record (an id may be `constructor`).
  const extras = recordMap(imported.entries);
  // An edited version keeps its predecessor's evidence, so it also keeps its evidence tasks.
  const evidenceTasks = (e: MemoryEntry): string[] => {
    const own = extras.get(e.id);
    if (own) return [...own.evidenceTasks];
    const before = entries.find((p) => p.supersededBy === e.id && extras.has(p.id) && sameList(p.evidence, e.evidence));
    if (before) return evidenceTasks(before);
    return [...new Set(e.evidence.map((x) => taskOf(x) ?? taskOfExperienceKey(x) ?? x))];
  };
  const fileEntry = (e: MemoryEntry): MemoryFileEntry => toFileEntry(e, evidenceTasks(e), extras.get(e.id)?.stats);
  const described = new Map((options.tools ?? []).map((t) => [t.id, t]));
  const costs = recordMap(imported.toolCosts ?? {});
  const toolIds = [...new Set([...imported.toolIds, ...valid.map((e) => e.toolId)])];
  const file: MemoryFile = {
    version: imported.version ?? 1,
    kind: 'toolmem-memory',
    memory: fileMemoryHeader(memory),
    build: structuredClone(imported.build),
    tools: toolIds.map((id) => {
      const mine = valid.filter((e) => e.toolId === id);
      const t = described.get(id);
      return {
        ...fileToolHeader(id, mine, t),
        entries: mine.map(fileEntry),
        ...structuredClone(costs.get(id) ?? {}),
      };
    }),
    historyCount: old.length + imported.historyNotStored,
    ...(options.history ? { history: old.map((e) => toHistoryEntry(e, fileEntry(e))) } : {}),
    ...fileEmbeddings(memory, valid, options.vectors),
  };
  return canonicalMemoryFile(file);
}
