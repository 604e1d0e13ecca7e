/**
 * Memory files written before schema v6 name their evidence with the old experience keys
 * (`datasetId|taskId|toolId|rater`, core/ids `legacyExperienceKey`); the store now keys rows
 * `datasetId|toolId|taskId|rater`. An entry's evidence is its own tool's rows, so the tool tells the
 * order: a clean four-part id whose third part is the entry's tool (and whose second is not) is an
 * old key, and is turned round. Anything else (already new, a part containing `|`, a tool whose id
 * is also the task's) stays as it is: an id that is not found only shows fewer evidence rows.
 */
import type { MemoryFile } from './schema';

/** The current key for an evidence id of `toolId`'s entry (the id itself when it is not an old key). */
export function currentEvidenceId(id: string, toolId: string): string {
  const parts = id.split('|');
  if (parts.length !== 4) return id;
  const [dataset, second, third, rater] = parts as [string, string, string, string];
  if (third !== toolId || second === toolId) return id;
  return `${dataset}|${toolId}|${second}|${rater}`;
}

/** The file with every entry's (and history row's) evidence ids in the current key order. */
export function upgradeEvidenceIds(file: MemoryFile): MemoryFile {
  const upgrade = (ids: readonly string[], toolId: string) => ids.map((id) => currentEvidenceId(id, toolId));
  return {
    ...file,
    tools: file.tools.map((t) => ({ ...t, entries: t.entries.map((e) => ({ ...e, evidence: upgrade(e.evidence, t.id) })) })),
    ...(file.history ? { history: file.history.map((h) => ({ ...h, evidence: upgrade(h.evidence, h.toolId) })) } : {}),
  };
}
