/**
 * Tool names in a file that look like a known tool (`dalle` beside a stored `DALLE_3`). The import
 * refuses their rows unless the user says, per name, "it is DALLE_3" (map) or "it is a new tool"
 * (ToolChoices); the dialog asks after the preview, the CLI takes --tool-map / --new-tool.
 *
 * The scan is the import itself with a sink that keeps nothing, so it finds exactly the names the
 * real import would refuse (same preset, mapping, validator), wherever they are in the file. It reads
 * the whole file once; nothing is held but the summary.
 */
import { runImport } from './pipeline';
import type { ImportOptions, NearMissTool, ToolChoices } from './types';

export type NearMissScanOptions = Omit<ImportOptions, 'importId' | 'now' | 'onProgress' | 'batchSize'> & { knownTools: string[] };

export async function findNearMissTools(input: AsyncIterable<string | Uint8Array>, opts: NearMissScanOptions): Promise<NearMissTool[]> {
  if (opts.knownTools.length === 0) return []; // nothing to resemble: skip reading the file
  const sink = { writeBatch: async (rows: unknown[]) => ({ added: rows.length, updated: 0, unchanged: 0 }) };
  const summary = await runImport(input, { ...opts, importId: 'near-miss-scan', now: 0 }, sink);
  return summary.nearMissTools ?? [];
}

/** Per look-alike name, the user's answer: its rows go under the suggested tool (`map`) or make a new tool (`new`). */
export type ToolDecision = 'map' | 'new';

/**
 * The decisions for the names found as ToolChoices (a fresh Map and Set, to be structured-cloned to
 * the worker); undefined when none is decided. Names not in `misses` are ignored.
 */
export function toolChoicesFrom(misses: readonly NearMissTool[], decisions: ReadonlyMap<string, ToolDecision>): ToolChoices | undefined {
  const map = new Map<string, string>();
  const newTools = new Set<string>();
  for (const m of misses) {
    const d = decisions.get(m.name);
    if (d === 'map') map.set(m.name, m.suggestion);
    else if (d === 'new') newTools.add(m.name);
  }
  return map.size || newTools.size ? { map, newTools } : undefined;
}
