/**
 * Importing a memory file into the current memory: as a new memory (the file as it is), or merged.
 * Merge rules (pure; the inputs are not changed):
 *  - tools: union by id; the current tool's name/modality/description win when both have one;
 *  - entries: an incoming entry identical to a current one (same id and content) is skipped;
 *    one with the same tool, level and text (case/space-insensitive) as a current entry adds its
 *    evidence to it; one whose id is taken by a different entry is added as `<id>~import[N]`;
 *    anything else is added;
 *  - calibration: the current tool's wins; tools new to the memory bring theirs;
 *  - embeddings: kept only when both sides use the same model (otherwise incoming vectors are
 *    dropped and the consumer re-embeds the added entries);
 *  - memory/build metadata: the current file's. Refused when the embedding models differ.
 */
import { parseMemoryFile, type MemoryFileIssue } from './parse';
import { ownRecord, recordMap, setOwn } from './records';
import { canonicalMemoryFile } from './serialize';
import type { MemoryFile, MemoryFileEntry, MemoryFileTool } from './schema';

export interface MergeReport {
  added: number;
  unchanged: number;
  evidenceMerged: number;
  renamed: { from: string; to: string }[];
  toolsAdded: string[];
}

export class MemoryMergeError extends Error {
  override name = 'MemoryMergeError';
}

const norm = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
const same = (a: MemoryFileEntry, b: MemoryFileEntry) => JSON.stringify(a) === JSON.stringify(b);

export function mergeMemoryFiles(current: MemoryFile, incoming: MemoryFile): { file: MemoryFile; report: MergeReport } {
  if (current.memory.embeddingModel !== incoming.memory.embeddingModel) {
    throw new MemoryMergeError(
      `Cannot merge: the memory uses embedding model '${current.memory.embeddingModel}' and the file '${incoming.memory.embeddingModel}'; import it ` +
        `as a new memory instead.`,
    );
  }
  const base = structuredClone(current);
  // Entries of a version-2 file carry version-2 fields: the merged file is version 2 then.
  base.version = Math.max(current.version, incoming.version) as MemoryFile['version'];
  const report: MergeReport = { added: 0, unchanged: 0, evidenceMerged: 0, renamed: [], toolsAdded: [] };
  const ids = new Set([...base.tools.flatMap((t) => t.entries.map((e) => e.id)), ...(base.history ?? []).map((e) => e.id)]);
  // Records keyed by entry/tool ids are read through Maps and written with setOwn (records.ts).
  const vectors = base.embeddings ? recordMap(base.embeddings.vectors) : null;
  const incomingVectors = recordMap(
    incoming.embeddings && base.embeddings && incoming.embeddings.dim === base.embeddings.dim ? incoming.embeddings.vectors : {},
  );
  const incomingCalibration = recordMap(incoming.build.calibration);
  for (const inTool of incoming.tools) {
    let tool: MemoryFileTool | undefined = base.tools.find((t) => t.id === inTool.id);
    if (!tool) {
      tool = { ...structuredClone(inTool), entries: [], counts: { proficient: 0, good: 0, bad: 0, weak: 0 } };
      base.tools.push(tool);
      report.toolsAdded.push(inTool.id);
      const cal = incomingCalibration.get(inTool.id);
      if (cal) setOwn(base.build.calibration, inTool.id, { ...cal });
    }
    for (const e of inTool.entries) {
      const existing = tool.entries.find((x) => x.id === e.id);
      if (existing && same(existing, e)) {
        report.unchanged++;
        continue;
      }
      const twin = tool.entries.find((x) => x.level === e.level && norm(x.text) === norm(e.text));
      if (twin) {
        const evidence = [...new Set([...twin.evidence, ...e.evidence])];
        twin.evidenceTasks = [...new Set([...twin.evidenceTasks, ...e.evidenceTasks])];
        twin.support += evidence.length - twin.evidence.length;
        twin.evidence = evidence;
        report.evidenceMerged++;
        continue;
      }
      let newId = e.id;
      for (let n = 1; ids.has(newId); n++) newId = n === 1 ? `${e.id}~import` : `${e.id}~import${n}`;
      if (newId !== e.id) report.renamed.push({ from: e.id, to: newId });
      ids.add(newId);
      tool.entries.push({ ...structuredClone(e), id: newId });
      tool.counts[e.level]++;
      report.added++;
      const v = incomingVectors.get(e.id);
      if (vectors && v) vectors.set(newId, [...v]);
    }
  }
  if (base.embeddings && vectors) base.embeddings = { ...base.embeddings, vectors: ownRecord(vectors) };
  return { file: canonicalMemoryFile(base), report };
}

export type ImportMode = 'new' | 'merge';

export type ImportResult = { ok: true; file: MemoryFile; report: MergeReport | null } | { ok: false; issues: MemoryFileIssue[]; file: MemoryFile | null };

/**
 * Import a memory file's text: `new` → the file itself (canonical); `merge` → merged into `current`.
 * On any problem the result carries every issue and `file` is `current`, unchanged.
 */
export function importMemoryText(current: MemoryFile | null, text: string, mode: ImportMode): ImportResult {
  const parsed = parseMemoryFile(text);
  if (!parsed.ok) return { ok: false, issues: parsed.issues, file: current };
  if (mode === 'new' || current === null) return { ok: true, file: canonicalMemoryFile(parsed.file), report: null };
  try {
    const { file, report } = mergeMemoryFiles(current, parsed.file);
    return { ok: true, file, report };
  } catch (err) {
    if (!(err instanceof MemoryMergeError)) throw err;
    return { ok: false, issues: [{ path: '$.memory.embeddingModel', message: err.message }], file: current };
  }
}
