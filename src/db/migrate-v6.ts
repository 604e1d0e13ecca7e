/**
 * Schema v6's upgrade: experience ids change order from `datasetId|taskId|toolId|rater` to
 * `datasetId|toolId|taskId|rater` (core/ids `experienceKey`), so a dataset's rows and one tool's rows
 * of it are primary-key ranges and the `[datasetId+toolId]` index can go.
 *
 * The key path stays `id`; only the values change, so the table is kept and its rows are re-keyed in
 * place, inside the version-change transaction (all or nothing: a failure leaves the v5 database).
 * Stored references follow: an import backup's `experienceId` (part of its key) and `previous.id`,
 * and a memory entry's `evidence` ids. It runs on the raw IndexedDB stores, below Dexie's middleware:
 * the dataset counts do not depend on ids, and deleting then re-adding every row through the counts
 * middleware would only bring each count row to zero and back.
 */
import { experienceKey } from '../core/ids';
import type { Experience } from '../core/types';
import type { MemoryEntry } from '../core/records';
import type { ImportBackup } from './rows';
import { done } from './idb-request';

/** Rows re-keyed per read (one `getAll` of the key range after the previous page). */
const PAGE = 2_000;

const newKeyOf = (e: Experience) => experienceKey(e.datasetId, e.taskId, e.toolId, e.rater);

/** What the upgrade did, for its test and the console. */
export interface RekeyReport {
  experiences: number;
  /** Rows left under their old id because another row already holds the new one (parts with `|` only; see below). */
  kept: number;
  backups: number;
  entries: number;
}

/**
 * Re-keys every experience whose id is not its new key. Pages go in key order over the live store:
 * rows already re-keyed (their id is their new key) are passed over when the scan reaches them.
 * Before a page's rows are written under their new ids, any row that sits at one of those ids in
 * the old order (task and tool swapped: `d|x|y|r` is the old id of (task x, tool y) and the new id
 * of (task y, tool x)) joins the page, as often as needed, so every old row is deleted before any
 * new row is put and nothing is overwritten. Two different rows can only get the same new id when a
 * part holds `|` (tool `b|c` of task `x` and tool `b` of task `c|x`); the second keeps its old id
 * (still counted and read by dataset; not lost).
 */
async function rekeyExperiences(store: IDBObjectStore, report: RekeyReport): Promise<void> {
  const keptIds = new Set<string>();
  let lower: IDBKeyRange | undefined;
  for (;;) {
    const page = (await done(store.getAll(lower, PAGE))) as Experience[];
    if (!page.length) {
      report.kept = keptIds.size;
      return;
    }
    const moving = new Map<string, Experience>();
    for (const e of page) if (e.id !== newKeyOf(e)) moving.set(e.id, e);
    // Rows in the old order at the new ids, until none is left.
    for (let todo = [...moving.values()]; todo.length;) {
      const atTarget = (await Promise.all(todo.map((e) => done(store.get(newKeyOf(e)))))) as (Experience | undefined)[];
      todo = [];
      for (const x of atTarget) {
        if (x && x.id !== newKeyOf(x) && !moving.has(x.id)) {
          moving.set(x.id, x);
          todo.push(x);
        }
      }
    }
    const targets = [...moving.values()];
    const occupied = (await Promise.all(targets.map((e) => done(store.get(newKeyOf(e)))))) as (Experience | undefined)[];
    // Rows that keep their old id: their new id is held by a row that stays where it is, or claimed
    // by another row of this page, or is the old id of a row that is kept (until nothing changes).
    const kept = new Set<string>();
    for (let changed = true; changed;) {
      changed = false;
      const claimed = new Set<string>();
      targets.forEach((e, i) => {
        if (kept.has(e.id)) return;
        const key = newKeyOf(e);
        const held = occupied[i];
        if (claimed.has(key) || kept.has(key) || (held && !moving.has(held.id))) {
          kept.add(e.id);
          changed = true;
        } else claimed.add(key);
      });
    }
    const moved = targets.filter((e) => !kept.has(e.id));
    for (const id of kept) keptIds.add(id);
    // Every old row out before any new row goes in (see above).
    await Promise.all(moved.map((e) => done(store.delete(e.id))));
    await Promise.all(moved.map((e) => done(store.put({ ...e, id: newKeyOf(e) }))));
    report.experiences += moved.length;
    lower = IDBKeyRange.lowerBound(page[page.length - 1]!.id, true);
  }
}

/** Import backups: `experienceId` (in the key) and the backed-up row's own id, to the new order. */
async function rekeyBackups(store: IDBObjectStore, report: RekeyReport): Promise<void> {
  const rows = (await done(store.getAll())) as ImportBackup[];
  const moving = rows.filter((b) => b.experienceId !== newKeyOf(b.previous) || b.previous.id !== newKeyOf(b.previous));
  // All deletes before all puts: a backup's new key may be another one's old key (task and tool swapped).
  await Promise.all(moving.map((b) => done(store.delete([b.importId, b.experienceId]))));
  await Promise.all(
    moving.map((b) => {
      const id = newKeyOf(b.previous);
      return done(store.put({ ...b, experienceId: id, previous: { ...b.previous, id } }));
    }),
  );
  report.backups += moving.length;
}

/**
 * Memory entries' evidence ids, looked up in the experiences (before they are re-keyed): the row
 * tells its parts, which an id with `|` in a part cannot. Ids of rows that are gone stay as they are.
 */
async function rekeyEvidence(entries: IDBObjectStore, experiences: IDBObjectStore, report: RekeyReport): Promise<void> {
  const all = (await done(entries.getAll())) as MemoryEntry[];
  const ids = [...new Set(all.flatMap((e) => e.evidence ?? []))];
  const rows = (await Promise.all(ids.map((id) => done(experiences.get(id))))) as (Experience | undefined)[];
  const renamed = new Map<string, string>();
  ids.forEach((id, i) => {
    const row = rows[i];
    if (row && newKeyOf(row) !== id) renamed.set(id, newKeyOf(row));
  });
  if (!renamed.size) return;
  const changed = all.filter((e) => (e.evidence ?? []).some((id) => renamed.has(id)));
  await Promise.all(changed.map((e) => done(entries.put({ ...e, evidence: e.evidence.map((id) => renamed.get(id) ?? id) }))));
  report.entries += changed.length;
}

/** The v6 upgrade, on the version-change transaction's stores (see the header). */
export async function rekeyExperienceIds(trans: IDBTransaction): Promise<RekeyReport> {
  const report: RekeyReport = { experiences: 0, kept: 0, backups: 0, entries: 0 };
  const experiences = trans.objectStore('experiences');
  await rekeyEvidence(trans.objectStore('entries'), experiences, report);
  await rekeyBackups(trans.objectStore('importBackups'), report);
  await rekeyExperiences(experiences, report);
  return report;
}
