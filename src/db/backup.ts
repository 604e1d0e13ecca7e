/**
 * "Back up everything": every table as one JSON file (images as base64, so the file is
 * self-contained), and restoring it in one transaction — all or nothing. Cached embeddings are
 * left out: they are recomputed on demand and would dominate the file.
 */
import { dict } from '../core/data-keys';
import { ValidationError } from '../core/errors';
import { experienceKey, legacyExperienceKey } from '../core/ids';
import { quote } from '../core/text/quote';
import type { ToolMemDB } from './schema';
import { withQuotaCheck } from './quota';

export const BACKUP_FORMAT = 'toolmem-backup';
export const BACKUP_VERSION = 1;
// Derived data: `countLog` (before v7 `datasetCounts`) and `importKeys` are rebuilt from the restored experiences
// (db/dataset-counts.ts, db/import-keys.ts: both middlewares see the restore's writes); the
// embedding cache (v5: `embeddingBlocks` + `embeddingKeys`) is recomputed on demand.
const SKIPPED = new Set(['embeddingBlocks', 'embeddingKeys', 'countLog', 'importKeys']);
// Tables a later schema version dropped (v4: `predictions`, never written; v5: `embeddings`, the
// cache's old layout, never backed up; v7: `datasetCounts`, derived, never backed up). Backups made before may list them, so a restore passes over
// them instead of refusing the file.
const RETIRED = new Set(['predictions', 'embeddings', 'datasetCounts']);

interface EncodedBlob {
  $blob: string;
  type: string;
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

async function encode(value: unknown): Promise<unknown> {
  if (value instanceof Blob) return { $blob: toBase64(new Uint8Array(await value.arrayBuffer())), type: value.type } satisfies EncodedBlob;
  if (Array.isArray(value)) return Promise.all(value.map(encode));
  if (value && typeof value === 'object') {
    // Rows hold data-keyed objects (run metrics per tool, …): `out.__proto__ = v` on a plain object
    // would drop the key, so the copy has a null prototype (core/data-keys).
    const out = dict<unknown>();
    for (const [k, v] of Object.entries(value)) out[k] = await encode(v);
    return out;
  }
  return value;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value && typeof value === 'object') {
    const b = value as Partial<EncodedBlob>;
    if (typeof b.$blob === 'string') return new Blob([fromBase64(b.$blob)], { type: b.type ?? '' });
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
  }
  return value;
}

export async function exportBackup(db: ToolMemDB): Promise<Blob> {
  const tables = dict<unknown[]>();
  for (const t of db.tables) {
    if (SKIPPED.has(t.name)) continue;
    tables[t.name] = (await encode(await t.toArray())) as unknown[];
  }
  const doc = { format: BACKUP_FORMAT, version: BACKUP_VERSION, exportedAt: new Date().toISOString(), schema: db.verno, tables };
  return new Blob([JSON.stringify(doc)], { type: 'application/json' });
}

/** Replaces everything with the backup's contents. Throws (changing nothing) on a file that is not a backup. */
export async function restoreBackup(db: ToolMemDB, text: string): Promise<Record<string, number>> {
  let doc: { format?: unknown; version?: unknown; tables?: unknown };
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ValidationError(`This file is not a ToolMem backup: it is not valid JSON (${(err as Error).message}).`);
  }
  if (doc?.format !== BACKUP_FORMAT) throw new ValidationError('This file is not a ToolMem backup (its "format" is not "toolmem-backup").');
  if (doc.version !== BACKUP_VERSION) throw new ValidationError(`This backup has version ${String(doc.version)}; this app reads version ${BACKUP_VERSION}.`);
  const tables = doc.tables as Record<string, unknown> | undefined;
  if (!tables || typeof tables !== 'object') throw new ValidationError('This backup has no "tables".');
  const known = new Map(db.tables.map((t) => [t.name, t]));
  for (const [name, rows] of Object.entries(tables)) {
    if (RETIRED.has(name)) continue;
    if (!known.has(name)) throw new ValidationError(`This backup has an unknown table "${name}".`);
    if (!Array.isArray(rows)) throw new ValidationError(`The backup's table "${name}" is not a list.`);
  }
  rekeyBackupTables(tables);
  const counts = dict<number>();
  await withQuotaCheck(() =>
    db.transaction('rw', db.tables, async () => {
      for (const t of db.tables) {
        if (SKIPPED.has(t.name)) continue;
        await t.clear();
        const rows = (tables[t.name] as unknown[] | undefined) ?? [];
        await t.bulkAdd(decode(rows) as never[]);
        counts[t.name] = rows.length;
      }
    }),
  );
  return counts;
}

/** Empties every table (the settings and the embedding cache too) in one transaction: the app as new, with every connection still open. */
export async function clearAllTables(db: ToolMemDB): Promise<void> {
  await db.transaction('rw', db.tables, async () => {
    for (const t of db.tables) await t.clear();
  });
}

/**
 * Every stored experience is keyed `experienceKey(datasetId, taskId, toolId, rater)`: re-imports
 * find the row they replace by it, and a dataset's, a tool's and a task's rows are read as ranges of
 * it (experience-repo). A backup edited by hand could break that silently, so it is refused, naming
 * the row. Backups made before schema v6 hold ids in the old order (`datasetId|taskId|toolId|rater`):
 * those are converted, with the references to them (import backups, memory entries' evidence), as
 * the v6 upgrade converts a stored database (migrate-v6.ts). Rewrites `tables` in place.
 */
function rekeyBackupTables(tables: Record<string, unknown>): void {
  const rows = (tables['experiences'] as unknown[] | undefined) ?? [];
  const renamed = new Map<string, string>();
  const seen = new Map<string, number>();
  tables['experiences'] = rows.map((row, i) => {
    const e = (row ?? {}) as Record<string, unknown>;
    const [id, datasetId, taskId, toolId, rater] = [e['id'], e['datasetId'], e['taskId'], e['toolId'], e['rater']];
    if (typeof id !== 'string' || typeof datasetId !== 'string' || typeof taskId !== 'string' || typeof toolId !== 'string' || typeof rater !== 'string') {
      throw new ValidationError(`The backup's experience number ${i + 1} lacks a text id, datasetId, taskId, toolId or rater.`);
    }
    const expected = experienceKey(datasetId, taskId, toolId, rater);
    if (id !== expected && id !== legacyExperienceKey(datasetId, taskId, toolId, rater)) {
      throw new ValidationError(
        `The backup's experience number ${i + 1} has the id ${quote(id)}; an experience of its dataset, task, tool and rater has the id ${quote(expected)}.`,
      );
    }
    const before = seen.get(expected);
    if (before !== undefined)
      throw new ValidationError(`The backup's experiences number ${before + 1} and ${i + 1} are the same experience (id ${quote(expected)}).`);
    seen.set(expected, i);
    if (id === expected) return row;
    renamed.set(id, expected);
    return { ...e, id: expected };
  });
  tables['importBackups'] = ((tables['importBackups'] as unknown[] | undefined) ?? []).map((row) => {
    const b = (row ?? {}) as Record<string, unknown>;
    const previous = b['previous'] as Record<string, unknown> | undefined;
    const old = b['experienceId'];
    const [d, task, tool, rater] = ['datasetId', 'taskId', 'toolId', 'rater'].map((k) => (previous ?? {})[k]);
    // The experience itself may be gone from the backup: the backed-up row still names its parts.
    const own =
      typeof d === 'string' &&
      typeof task === 'string' &&
      typeof tool === 'string' &&
      typeof rater === 'string' &&
      old === legacyExperienceKey(d, task, tool, rater)
        ? experienceKey(d, task, tool, rater)
        : undefined;
    const id = typeof old === 'string' ? (renamed.get(old) ?? own) : undefined;
    // A backed-up row replaced by an import: its key and its own id follow its experience's new id.
    return id === undefined ? row : { ...b, experienceId: id, ...(previous && typeof previous === 'object' ? { previous: { ...previous, id } } : {}) };
  });
  tables['entries'] = ((tables['entries'] as unknown[] | undefined) ?? []).map((row) => {
    const e = (row ?? {}) as Record<string, unknown>;
    const evidence = e['evidence'];
    if (!Array.isArray(evidence) || !renamed.size) return row;
    return { ...e, evidence: evidence.map((x: unknown) => (typeof x === 'string' ? (renamed.get(x) ?? x) : x)) };
  });
}
