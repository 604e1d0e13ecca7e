import { prefixRange } from '../core/ids';
import type { LabelItem } from '../core/types';
import type { ToolMemDB } from './schema';

/**
 * Per tool, the label items of a dataset that no experience scores yet (outputs awaiting labels).
 * An item is scored once any experience of its (task, tool) exists, whoever the rater. Reads the
 * items, then only the keys of each tool's range `datasetId|toolId|` (core/ids): no experience row
 * is read. Keys are `datasetId|toolId|taskId|rater` with unescaped parts, so a key's rest after the
 * tool prefix is matched against the tool's item tasks at every `|` (a task may hold `|` itself).
 */
export async function awaitingByTool(db: ToolMemDB, datasetId: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const item of await awaitingItems(db, datasetId)) out.set(item.toolId, (out.get(item.toolId) ?? 0) + 1);
  return out;
}

/** The label items of a dataset that no experience scores yet, in item-key order (the Data page's browser lists them). */
export async function awaitingItems(db: ToolMemDB, datasetId: string): Promise<LabelItem[]> {
  const items = await db.items.where('datasetId').equals(datasetId).toArray();
  const tasksByTool = new Map<string, Set<string>>();
  for (const item of items) {
    const tasks = tasksByTool.get(item.toolId) ?? tasksByTool.set(item.toolId, new Set()).get(item.toolId)!;
    tasks.add(item.taskId);
  }
  for (const [toolId, tasks] of tasksByTool) {
    const prefix = `${datasetId}|${toolId}|`;
    const [lower, upper] = prefixRange(prefix);
    const keys = (await db.experiences.where(':id').between(lower, upper, true, false).primaryKeys()) as string[];
    const scored = new Set<string>();
    for (const key of keys) {
      const rest = key.slice(prefix.length);
      for (let at = rest.indexOf('|'); at >= 0; at = rest.indexOf('|', at + 1)) {
        const task = rest.slice(0, at);
        if (tasks.has(task)) scored.add(task);
      }
    }
    for (const task of scored) tasks.delete(task);
  }
  return items.filter((item) => tasksByTool.get(item.toolId)?.has(item.taskId));
}
