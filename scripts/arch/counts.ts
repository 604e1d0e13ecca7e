/**
 * The architecture figures docs/architecture.md cites, from the tree as it is:
 *   npm run arch:counts            (or: npx tsx scripts/arch/counts.ts)
 * Import cycles and layer breaks come from the same import graph the tests read
 * (tests/unit/arch/cycles.test.ts, layers.test.ts); UI files reaching storage and `as unknown as`
 * casts are plain text searches; function lengths come from the TypeScript parser (functions.ts).
 * tests/unit/arch/docs-figures.test.ts fails when docs/architecture.md states other figures.
 * Repeated code is counted by `duplicates --seconds 120`, a separate tool this script does not run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { longFunctions } from './functions';
import { cycles, readGraph, ROOT } from './import-graph';
import { layerEdges, layerOf, layerViolations } from './layers';

/** The figures docs/architecture.md's table states, by the name of its row. */
export interface ArchFigures {
  cycles: string[][];
  layerBreaks: { rule: string; from: string; to: string }[];
  uiStorage: string[];
  casts: string[];
  longFunctions: { file: string; name: string; lines: number }[];
  longestCommand: { file: string; lines: number };
  /** Files outside the engine table (src/core/llm/engines.ts) that compare a spec's engine kind by hand. */
  engineKindFiles: string[];
  files: number;
  imports: number;
  edges: Map<string, number>;
}

export function archFigures(): ArchFigures {
  const graph = readGraph();
  const uiFiles = graph.files.filter((f) => layerOf(f)?.name === 'ui');
  const storageImporters = uiFiles.filter(
    (f) => graph.edges.get(f)!.some((t) => layerOf(t)?.name === 'db') || /from\s+['"]dexie['"]/.test(readFileSync(join(ROOT, f), 'utf8')),
  );
  const casts = graph.files.flatMap((f) => (readFileSync(join(ROOT, f), 'utf8').match(/as unknown as/g) ?? []).map(() => f));
  const commands = readdirSync(join(ROOT, 'src/cli/commands'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: `src/cli/commands/${f}`, lines: readFileSync(join(ROOT, 'src/cli/commands', f), 'utf8').split('\n').length - 1 }))
    .sort((a, b) => b.lines - a.lines);
  // An engine kind compared with a literal (`kind === 'webllm'`, `s.kind !== 'none'`): the table's own file aside.
  const kindTest = /\.kind\s*[!=]==\s*'(none|openai|wllama|webllm)'/;
  const engineKindFiles = graph.files.filter((f) => f !== 'src/core/llm/engines.ts' && kindTest.test(readFileSync(join(ROOT, f), 'utf8')));
  return {
    cycles: cycles(graph),
    layerBreaks: layerViolations(graph),
    uiStorage: storageImporters,
    casts,
    longFunctions: longFunctions(ROOT),
    longestCommand: commands[0]!,
    engineKindFiles,
    files: graph.files.length,
    imports: [...graph.edges.values()].reduce((n, t) => n + t.length, 0),
    edges: layerEdges(graph),
  };
}

function main(): void {
  const f = archFigures();
  const lines = [
    `files in the import graph (src/, workers/): ${f.files}, imports between them: ${f.imports}`,
    `import cycles (type imports included): ${f.cycles.length}${f.cycles.map((c) => `\n  ${c.join(' → ')}`).join('')}`,
    `imports a layer may not make (upward or sideways): ${f.layerBreaks.length}${f.layerBreaks.map((v) => `\n  ${v.rule}: ${v.from} → ${v.to}`).join('')}`,
    `UI files importing storage (src/db or dexie): ${f.uiStorage.length} (${f.uiStorage.join(', ')})`,
    `'as unknown as' casts in src/ and workers/: ${f.casts.length}`,
    `functions over 80 lines in src/ and workers/: ${f.longFunctions.length}${f.longFunctions.map((x) => `\n  ${x.lines} ${x.file} ${x.name}`).join('')}`,
    `longest CLI command file: ${f.longestCommand.lines} lines (${f.longestCommand.file})`,
    `files comparing an engine kind by hand (outside src/core/llm/engines.ts): ${f.engineKindFiles.length} (${f.engineKindFiles.join(', ')})`,
    'imports between layers:',
    ...[...f.edges].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `  ${k}: ${n}`),
  ];
  console.log(lines.join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
