/**
 * Canonical serialisation: one byte sequence per memory, so export → import → export is
 * byte-identical and two exports can be diffed. Rules: object keys in schema order (free-form
 * `settings`/`metrics`/`stats`, `calibration` and `vectors` by sorted key), tools by id, entries by
 * level (proficient → weak) then id, history by tool then id, vector numbers as float32 values,
 * two-space indentation, one trailing newline.
 */
import { MemoryFileError, schemaParse } from './parse';
import { ownRecord } from './records';
import { LEVEL_NAMES, type MemoryFile, type MemoryFileEntry } from './schema';

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const levelRank = (e: MemoryFileEntry) => LEVEL_NAMES.indexOf(e.level);
const byLevelThenId = (a: MemoryFileEntry, b: MemoryFileEntry) => levelRank(a) - levelRank(b) || cmp(a.id, b.id);

/** A JSON value with every object's keys sorted (arrays keep their order). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  // ownRecord, not `out[k] = …`: a key `__proto__` must stay a key (records.ts).
  const rec = value as Record<string, unknown>;
  return ownRecord(
    Object.keys(rec)
      .sort(cmp)
      .flatMap((k) => (rec[k] !== undefined ? [[k, sortKeysDeep(rec[k])] as const] : [])),
  );
}

function sortRecord<T>(rec: Record<string, T>, map: (v: T) => T = (v) => v): Record<string, T> {
  return ownRecord(
    Object.keys(rec)
      .sort(cmp)
      .map((k) => [k, map(rec[k]!)] as const),
  );
}

/** The canonical form of a (valid) memory file; throws a MemoryFileError on an invalid one. */
export function canonicalMemoryFile(file: MemoryFile): MemoryFile {
  const parsed = schemaParse(file);
  if (!parsed.ok) throw new MemoryFileError(parsed.issues);
  const f = parsed.file;
  return {
    ...f,
    build: {
      ...f.build,
      settings: sortKeysDeep(f.build.settings) as Record<string, unknown>,
      metrics: sortKeysDeep(f.build.metrics) as Record<string, unknown>,
      calibration: sortRecord(f.build.calibration),
    },
    tools: [...f.tools].sort((a, b) => cmp(a.id, b.id)).map((t) => ({ ...t, entries: [...t.entries].sort(byLevelThenId) })),
    ...(f.history ? { history: [...f.history].sort((a, b) => cmp(a.toolId, b.toolId) || byLevelThenId(a, b)) } : {}),
    ...(f.embeddings ? { embeddings: { ...f.embeddings, vectors: sortRecord(f.embeddings.vectors, (v) => v.map((x) => Math.fround(x))) } } : {}),
  };
}

/** The file's canonical text (what export writes). */
export function serializeMemoryFile(file: MemoryFile): string {
  return `${JSON.stringify(canonicalMemoryFile(file), null, 2)}\n`;
}
