/**
 * The architecture figures docs/architecture.md cites, from the tree as it is:
 *   npm run arch:counts            (or: npx tsx scripts/arch/counts.ts)
 * Import cycles and layer breaks come from the same import graph the tests read
 * (tests/unit/arch/cycles.test.ts, layers.test.ts); UI files reaching storage and `as unknown as`
 * casts are plain text searches. Repeated code is counted by `duplicates --seconds 120`, a separate
 * tool this script does not run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cycles, readGraph, ROOT } from './import-graph';
import { layerEdges, layerOf, layerViolations } from './layers';

const graph = readGraph();
const found = cycles(graph);
const broken = layerViolations(graph);
const uiFiles = graph.files.filter((f) => layerOf(f)?.name === 'ui');
const storageImporters = uiFiles.filter((f) => graph.edges.get(f)!.some((t) => layerOf(t)?.name === 'db') || /from\s+['"]dexie['"]/.test(readFileSync(join(ROOT, f), 'utf8')));
const casts = graph.files.flatMap((f) => (readFileSync(join(ROOT, f), 'utf8').match(/as unknown as/g) ?? []).map(() => f));
const edgeCount = [...graph.edges.values()].reduce((n, t) => n + t.length, 0);

const lines = [
  `files in the import graph (src/, workers/): ${graph.files.length}, imports between them: ${edgeCount}`,
  `import cycles (type imports included): ${found.length}${found.map((c) => `\n  ${c.join(' → ')}`).join('')}`,
  `imports a layer may not make (upward or sideways): ${broken.length}${broken.map((v) => `\n  ${v.rule}: ${v.from} → ${v.to}`).join('')}`,
  `UI files importing storage (src/db or dexie): ${storageImporters.length} (${storageImporters.join(', ')})`,
  `'as unknown as' casts in src/ and workers/: ${casts.length}`,
  'imports between layers:',
  ...[...layerEdges(graph)].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `  ${k}: ${n}`),
];
console.log(lines.join('\n'));
