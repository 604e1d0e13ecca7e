/**
 * Runs facet discovery (src/core/capability/facets.ts) on a real prompt set with the offline
 * embedding model and prints the facets (kind, name, tasks, triggers, typical example) and notes.
 * Calibration aid for docs/memory.md ("Facets"); not a test.
 *   npx tsx scripts/capability/facet-report.ts                 GenAI-Bench prompts.csv, skills as categories
 *   npx tsx scripts/capability/facet-report.ts FILE.json FIELD [CATEGORY_FIELD]   a JSON array of records
 */
import { readFileSync } from 'node:fs';
import { discoverFacets, type TrainingFacetTask } from '../../src/core/capability/facets';
import { rowOf } from '../../src/core/embed/embedder';
import { createTransformersEmbedder } from '../../src/model-host/transformers-embedder';
import { parseCsv } from './csv';

function genai(): TrainingFacetTask[] {
  const [header, ...rows] = parseCsv(readFileSync(new URL('../../../shared/data/genai_bench/prompts.csv', import.meta.url), 'utf8'));
  const col = (n: string) => header!.indexOf(n);
  return rows
    .filter((r) => r.length > 1)
    .map((r) => ({
      taskId: r[col('id')]!,
      prompt: r[col('prompt')]!,
      categories: [...r[col('basic_skills')]!.split(';'), ...r[col('advanced_skills')]!.split(';')].filter(Boolean),
    }));
}

function jsonArray(file: string, field: string, categoryField?: string): TrainingFacetTask[] {
  const seen = new Set<string>();
  const out: TrainingFacetTask[] = [];
  (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>[]).forEach((r, i) => {
    const prompt = String(r[field] ?? '');
    if (seen.has(prompt)) return;
    seen.add(prompt);
    out.push({ taskId: String(i).padStart(5, '0'), prompt, ...(categoryField ? { categories: [String(r[categoryField])] } : {}) });
  });
  return out;
}

const [file, field, categoryField] = process.argv.slice(2);
const tasks = file ? jsonArray(file, field ?? 'prompt', categoryField) : genai();
const embedder = createTransformersEmbedder();
const batch = await embedder.embed(tasks.map((t) => t.prompt));
tasks.forEach((t, i) => (t.vector = rowOf(batch, i).slice()));
const started = performance.now();
const d = discoverFacets(tasks, { modality: file ? 'text' : 'image' });
const ms = performance.now() - started;
for (const f of d.facets) {
  const ex = (f.example ?? '').slice(0, 90);
  const extra = f.facet.rule.type === 'theme' ? ` cos≥${f.facet.rule.minSimilarity.toFixed(3)} coh ${f.coherence?.toFixed(3)}` : '';
  console.log(
    `${f.facet.kind.padEnd(8)} ${f.facet.name.padEnd(42)} n=${String(f.taskIds.length).padStart(4)}${extra} ${f.triggers ? `[${f.triggers.join(', ')}]` : ''} e.g. ${ex}`,
  );
}
console.log(d.notes.join('\n'));
console.log(`${tasks.length} tasks, discovery ${ms.toFixed(0)} ms (embedding ${embedder.id})`);
await embedder.dispose?.();
