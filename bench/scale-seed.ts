/**
 * Seeds the app's own database (same origin, same schema) with a large amount of data for
 * `npm run bench:scale`: written straight through Dexie in big transactions, because the point is
 * to measure how the pages cope with the data, not how fast it was imported (bench:import does that).
 */
import { ToolMemDB } from '../src/db';
import type { Experience, Level } from '../src/core/types';
import type { MemoryEntry } from '../src/core/records';
import { LEVELS, LEVEL_VALUE } from '../src/core/types';

declare global {
  interface Window {
    seedScale(opts: { experiences: number; entries: number; tools: number }): Promise<{ experiences: number; entries: number; ms: number }>;
    seedMemory(opts: { datasetId: string; entries: number }): Promise<{ entries: number; ms: number }>;
  }
}

const WORDS =
  'red blue green small large old quiet bright dark wooden glass metal cat dog horse bird child robot car train bridge river mountain forest city market kitchen window lamp book flower tree cloud moon ocean boat castle garden'.split(
    ' ',
  );
const words = (i: number, n: number) => Array.from({ length: n }, (_, k) => WORDS[(i * 31 + k * 17 + ((i >> 3) % 7)) % WORDS.length]).join(' ');

window.seedScale = async ({ experiences, entries, tools }) => {
  const t0 = performance.now();
  const db = new ToolMemDB();
  await db.open();
  const now = Date.now();
  const toolIds = Array.from({ length: tools }, (_, i) => `tool-${i}`);
  await db.tools.bulkPut(toolIds.map((id) => ({ id, name: id, modality: 'text→text' as const, description: `Tool ${id}`, createdAt: now })));
  await db.datasets.put({
    id: 'scale',
    name: 'Scale',
    source: 'scale.csv',
    preset: 'generic',
    scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
    raterPolicy: { kind: 'mean' },
    createdAt: now,
  });
  const CHUNK = 10_000;
  for (let start = 0; start < experiences; start += CHUNK) {
    const rows: Experience[] = [];
    for (let i = start; i < Math.min(experiences, start + CHUNK); i++) {
      const task = Math.floor(i / tools);
      const toolId = toolIds[i % tools]!;
      rows.push({
        id: `scale|${toolId}|t${task}|default`,
        datasetId: 'scale',
        taskId: `t${task}`,
        prompt: `Task ${task}: ${words(task, 12)}`,
        toolId,
        response: words(i, 40),
        score: 1 + ((task * 7 + i) % 5),
        rater: 'default',
        scoreSource: 'human',
        categories: [],
        importId: 'imp-scale',
        createdAt: now,
      });
    }
    await db.experiences.bulkAdd(rows);
  }
  await db.imports.put({
    id: 'imp-scale',
    datasetId: 'scale',
    fileName: 'scale.csv',
    preset: 'generic',
    state: 'completed',
    rowsRead: experiences,
    accepted: experiences,
    unchanged: 0,
    updated: 0,
    rejected: 0,
    errors: [],
    startedAt: now,
    finishedAt: now,
  });
  await db.memories.put({
    id: 'mem-scale',
    name: 'Scale memory',
    datasetIds: ['scale'],
    embeddingModel: 'glove-100d',
    settings: {},
    createdAt: now,
    updatedAt: now,
  });
  const list: MemoryEntry[] = [];
  for (let i = 0; i < entries; i++) {
    const level: Level = LEVELS[i % 4]!;
    // One in five is an older version, superseded by the next one: history, not shown as current.
    const superseded = i % 5 === 4;
    list.push({
      id: `e${i}`,
      memoryId: 'mem-scale',
      toolId: toolIds[Math.floor(i / 4) % tools]!,
      level,
      value: LEVEL_VALUE[level],
      text: `Entry ${i}: ${words(i, 14)}`,
      evidence: [`scale|tool-0|t${i % 1000}|default`],
      support: 1 + (i % 40),
      origin: 'stats',
      pinned: false,
      validFrom: now,
      validTo: superseded ? now : null,
      supersededBy: superseded ? `e${i + 1}` : null,
      createdAt: now,
      updatedAt: now,
    });
  }
  await db.entries.bulkAdd(list);
  const counts = { experiences: await db.experiences.count(), entries: await db.entries.count(), ms: performance.now() - t0 };
  db.close();
  return counts;
};

/**
 * The scale curve (`bench:scale -- --sizes …`): a memory of `entries` entries over a dataset the bench
 * imported through the app, written straight through Dexie like seedScale's, so the Memory page
 * has entries to open at every size. Its tools are the dataset's (from the stored counts).
 */
window.seedMemory = async ({ datasetId, entries }) => {
  const t0 = performance.now();
  const db = new ToolMemDB();
  await db.open();
  const now = Date.now();
  const toolIds = (await db.tools.toArray()).map((t) => t.id);
  const memoryId = `mem-${datasetId}`;
  await db.memories.put({
    id: memoryId,
    name: 'Scale memory',
    datasetIds: [datasetId],
    embeddingModel: 'glove-100d',
    settings: {},
    createdAt: now,
    updatedAt: now,
  });
  const list: MemoryEntry[] = [];
  for (let i = 0; i < entries; i++) {
    const level: Level = LEVELS[i % 4]!;
    list.push({
      id: `${memoryId}-e${i}`,
      memoryId,
      toolId: toolIds[Math.floor(i / 4) % toolIds.length]!,
      level,
      value: LEVEL_VALUE[level],
      text: `Entry ${i}: ${words(i, 14)}`,
      evidence: [],
      support: 1 + (i % 40),
      origin: 'stats',
      pinned: false,
      validFrom: now,
      validTo: null,
      supersededBy: null,
      createdAt: now,
      updatedAt: now,
    });
  }
  await db.entries.bulkAdd(list);
  db.close();
  return { entries, ms: performance.now() - t0 };
};
