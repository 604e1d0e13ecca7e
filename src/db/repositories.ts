import type { DatasetRepository, ImageRepository, ImportRepository, LabelRepository, Repositories, RunRepository, ToolRepository } from '../core/repositories';
import type { Dataset, Experience, ImportRecord, LabelItem, Preference, StoredImage, Tool } from '../core/types';
import type { Run, RunKind, RunOf } from '../core/records';
import { DexieExperienceRepository } from './experience-repo';
import { ImportKeyLists } from './import-keys';
import { forgetDatasetCounts } from './count-log';
import { DexieMemoryRepository } from './memory-repo';
import { withQuotaCheck } from './quota';
import { awaitingByTool, awaitingItems } from './awaiting';
import type { EntityTable, IDType } from 'dexie';
import type { ToolMemDB } from './schema';

/**
 * What every repository here does the same way over its own table: read a row by id, and write one
 * with the quota check (a full disk becomes a StorageFullError, never a silent loss).
 */
abstract class TableRepository<Row extends { id: string }> {
  constructor(
    protected readonly db: ToolMemDB,
    private readonly table: EntityTable<Row, 'id'>,
  ) {}
  get(id: IDType<Row, 'id'>) {
    return this.table.get(id);
  }
  async put(row: Row) {
    await withQuotaCheck(() => this.table.put(row));
  }
}

class DexieToolRepository extends TableRepository<Tool> implements ToolRepository {
  constructor(db: ToolMemDB) {
    super(db, db.tools);
  }
  list() {
    return this.db.tools.orderBy('name').toArray();
  }
  async ensure(tools: Tool[]) {
    await withQuotaCheck(() =>
      this.db.transaction('rw', this.db.tools, async () => {
        const existing = await this.db.tools.bulkGet(tools.map((t) => t.id));
        await this.db.tools.bulkAdd(tools.filter((_, i) => !existing[i]));
      }),
    );
  }
}

class DexieDatasetRepository extends TableRepository<Dataset> implements DatasetRepository {
  constructor(db: ToolMemDB) {
    super(db, db.datasets);
  }
  list() {
    return this.db.datasets.orderBy('createdAt').toArray();
  }
  async remove(id: string) {
    const db = this.db;
    await db.transaction(
      'rw',
      [db.datasets, db.experiences, db.imports, db.importBackups, db.importKeys, db.countLog, db.images, db.items, db.preferences],
      async () => {
        const importIds = await db.imports.where('datasetId').equals(id).primaryKeys();
        await db.importBackups.where('importId').anyOf(importIds).delete();
        // Their key lists (db/import-keys.ts) go with them; lists of ids with no import record
        // (labels: 'manual') are rewritten without the keys of the rows deleted below.
        const lists = new ImportKeyLists(db);
        await lists.forget(importIds);
        await db.imports.where('datasetId').equals(id).delete();
        await new DexieExperienceRepository(db).inDataset(id).delete();
        // The count log's differences of the dataset now sum to nothing: they go (db/count-log.ts).
        await forgetDatasetCounts(db, id);
        const recorded = new Set((await db.imports.toCollection().primaryKeys()) as string[]);
        for (const importId of await lists.importIds()) if (!recorded.has(importId)) await lists.prune(importId);
        await db.images.where('datasetId').equals(id).delete();
        await db.items.where('datasetId').equals(id).delete();
        await db.preferences.where('datasetId').equals(id).delete();
        await db.datasets.delete(id);
      },
    );
  }
}

class DexieImportRepository extends TableRepository<ImportRecord> implements ImportRepository {
  constructor(db: ToolMemDB) {
    super(db, db.imports);
  }
  async byDataset(datasetId: string) {
    const rows = await this.db.imports.where('datasetId').equals(datasetId).sortBy('startedAt');
    return rows.reverse();
  }
  async list(): Promise<ImportRecord[]> {
    return (await this.db.imports.orderBy('startedAt').toArray()).reverse();
  }
}

class DexieRunRepository extends TableRepository<Run> implements RunRepository {
  constructor(db: ToolMemDB) {
    super(db, db.runs);
  }
  async list<K extends RunKind = RunKind>(kind?: K): Promise<RunOf<K>[]> {
    const rows = kind ? await this.db.runs.where('kind').equals(kind).sortBy('startedAt') : await this.db.runs.orderBy('startedAt').toArray();
    // The filter keeps every row (the index already chose the kind); it narrows the type without a cast.
    return rows.reverse().filter((r): r is RunOf<K> => kind === undefined || r.kind === kind);
  }
}

class DexieImageRepository extends TableRepository<StoredImage> implements ImageRepository {
  constructor(db: ToolMemDB) {
    super(db, db.images);
  }
  async putMany(images: StoredImage[], experiences: Experience[], items: LabelItem[] = []) {
    await withQuotaCheck(() =>
      this.db.transaction('rw', [this.db.images, this.db.experiences, this.db.items], async () => {
        await this.db.images.bulkPut(images);
        await this.db.experiences.bulkPut(experiences);
        if (items.length) await this.db.items.bulkPut(items);
      }),
    );
  }
  countByDataset(datasetId: string) {
    return this.db.images.where('datasetId').equals(datasetId).count();
  }
}

class DexieLabelRepository implements LabelRepository {
  constructor(private readonly db: ToolMemDB) {}
  items(datasetId: string) {
    return this.db.items.where('datasetId').equals(datasetId).toArray();
  }
  async putItem(item: LabelItem, image?: StoredImage) {
    await withQuotaCheck(() =>
      this.db.transaction('rw', this.db.items, this.db.images, async () => {
        if (image) await this.db.images.put(image);
        await this.db.items.put(item);
      }),
    );
  }
  async putImportedItems(items: LabelItem[]) {
    let added = 0;
    await withQuotaCheck(() =>
      this.db.transaction('rw', this.db.items, async () => {
        const stored = await this.db.items.bulkGet(items.map((i) => i.id));
        const rows = items.map((item, i) => {
          const old = stored[i];
          if (!old) {
            added++;
            return item;
          }
          const merged: LabelItem = { ...item, createdAt: old.createdAt };
          if (old.importId === undefined) delete merged.importId;
          else merged.importId = old.importId;
          if (old.imageId?.startsWith('img:')) merged.imageId = old.imageId;
          return merged;
        });
        await this.db.items.bulkPut(rows);
      }),
    );
    return added;
  }
  async removeImportItems(datasetId: string, importId: string) {
    await this.db.items
      .where('datasetId')
      .equals(datasetId)
      .filter((i) => i.importId === importId)
      .delete();
  }
  async awaiting(datasetId: string) {
    return awaitingByTool(this.db, datasetId);
  }
  awaitingItems(datasetId: string) {
    return awaitingItems(this.db, datasetId);
  }
  preferences(datasetId: string) {
    return this.db.preferences.where('datasetId').equals(datasetId).toArray();
  }
  async putPreference(preference: Preference) {
    await withQuotaCheck(() => this.db.preferences.put(preference));
  }
  async removePreference(id: string) {
    await this.db.preferences.delete(id);
  }
}

/** Every repository over one database connection. */
export function createRepositories(db: ToolMemDB): Repositories {
  return {
    tools: new DexieToolRepository(db),
    datasets: new DexieDatasetRepository(db),
    experiences: new DexieExperienceRepository(db),
    imports: new DexieImportRepository(db),
    memories: new DexieMemoryRepository(db),
    runs: new DexieRunRepository(db),
    images: new DexieImageRepository(db),
    labels: new DexieLabelRepository(db),
  };
}
