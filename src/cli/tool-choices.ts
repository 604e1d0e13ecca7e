/**
 * CLI side of look-alike tool names (issue #14): `--known-tools` says which tools exist (the CLI has
 * no store), `--tool-map NAME=TOOL` stores NAME's rows under TOOL, `--new-tool NAME` accepts NAME as
 * a new tool. The report tells, per refused name, exactly which of the two flags to add.
 */
import type { ImportSummary, ToolChoices } from '../core/import/types';
import { QUOTE_MAX, clipInput, quote } from '../core/text/quote';
import { UsageError } from './io';

export interface ToolChoiceArgs {
  knownTools?: string[];
  toolChoices?: ToolChoices;
}

/** Validates the three options (each may be repeated; --known-tools also takes a comma list). */
export function toolChoiceArgs(values: { 'known-tools'?: string[]; 'tool-map'?: string[]; 'new-tool'?: string[] }): ToolChoiceArgs {
  const out: ToolChoiceArgs = {};
  const known = (values['known-tools'] ?? [])
    .flatMap((v) => v.split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  if (known.length) out.knownTools = known;
  // Maps and Sets: tool names are data (any string, `__proto__` included).
  const map = new Map<string, string>();
  for (const pair of values['tool-map'] ?? []) {
    // One NAME=TOOL per flag, split at the first '=' (tool names may hold commas).
    const eq = pair.indexOf('=');
    const name = eq < 0 ? '' : pair.slice(0, eq).trim();
    const tool = eq < 0 ? '' : pair.slice(eq + 1).trim();
    if (!name || !tool) throw new UsageError(`--tool-map ${quote(pair)}: expected NAME=TOOL, e.g. --tool-map dalle=DALLE_3.`);
    const before = map.get(name);
    if (before !== undefined && before !== tool) throw new UsageError(`--tool-map: ${quote(name)} is mapped twice (to ${quote(before)} and ${quote(tool)}).`);
    map.set(name, tool);
  }
  const newTools = new Set((values['new-tool'] ?? []).map((t) => t.trim()).filter(Boolean));
  for (const name of newTools) {
    if (map.has(name)) throw new UsageError(`${quote(name)} is given both --tool-map and --new-tool: choose one.`);
  }
  if (map.size || newTools.size) out.toolChoices = { ...(map.size ? { map } : {}), ...(newTools.size ? { newTools } : {}) };
  return out;
}

/**
 * Text as one shell word (bare when safe, else single-quoted), so the flag can be copied as shown.
 * A name too long to echo (over QUOTE_MAX characters) is written as NAME instead.
 */
function shellWord(text: string, name: string): string {
  // quote() would escape control characters, so such a name cannot be shown as typed either.
  if ([...name].length > QUOTE_MAX || clipInput(name) !== name) return text.replace(name, 'NAME');
  return /^[\w.:@%+=,/-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The refusal for each look-alike name, with the two flags that resolve it; [] when there is none. */
export function describeNearMisses(summary: Pick<ImportSummary, 'nearMissTools'>): string[] {
  const misses = summary.nearMissTools ?? [];
  if (misses.length === 0) return [];
  const lines = ['Tool names that look like a known tool (their rows were refused):'];
  for (const m of misses) {
    lines.push(
      `  ${quote(m.name)} (${m.rows} row${m.rows === 1 ? '' : 's'}): did you mean ${quote(m.suggestion)}? ` +
        `Add --tool-map ${shellWord(`${m.name}=${m.suggestion}`, m.name)} to store these rows under ${quote(m.suggestion)}, ` +
        `or --new-tool ${shellWord(m.name, m.name)} to import ${quote(m.name)} as a new tool.`,
    );
  }
  return lines;
}
