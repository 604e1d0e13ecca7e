/**
 * Agreement of the text cues (src/core/capability/cues.ts) with GenAI-Bench's human skill tags:
 * precision and recall of each cue against its skill, over the 1,600 prompts. Prints a Markdown
 * table (docs/memory.md, "Facets"). Usage: npx tsx scripts/capability/cue-agreement.ts [prompts.csv]
 * Reads ../shared/data/genai_bench/prompts.csv by default (columns basic_skills, advanced_skills).
 */
import { readFileSync } from 'node:fs';
import { cueById } from '../../src/core/capability/cues';
import { parseCsv } from './csv';

const file = process.argv[2] ?? new URL('../../../shared/data/genai_bench/prompts.csv', import.meta.url).pathname;

const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));
const col = (name: string) => header!.indexOf(name);
const tasks = rows
  .filter((r) => r.length > 1)
  .map((r) => ({
    prompt: r[col('prompt')]!,
    basic: r[col('category')] === 'basic',
    skills: new Set([...r[col('basic_skills')]!.split(';'), ...r[col('advanced_skills')]!.split(';')].filter(Boolean)),
  }));

// GenAI-Bench tags basic skills (spatial relation among them) on "basic" prompts only, and advanced
// skills on "advanced" prompts only: each cue is compared on the prompts where its skill is tagged.
const PAIRS: [string, string, boolean][] = [
  ['negation', 'negation', false],
  ['counting', 'counting', false],
  ['spatial', 'spatial relation', true],
  ['comparison', 'comparison', false],
  ['universal', 'universal', false],
];
console.log(`| cue | GenAI-Bench skill | prompts compared | tagged | fired | both | precision | recall | precision, all 1,600 |`);
console.log(`|---|---|---|---|---|---|---|---|---|`);
for (const [cueId, skill, basic] of PAIRS) {
  const cue = cueById(cueId)!;
  let tp = 0,
    fired = 0,
    tagged = 0;
  const fp: string[] = [],
    fn: string[] = [];
  const scope = tasks.filter((t) => t.basic === basic);
  for (const t of scope) {
    const f = cue.test(t.prompt),
      g = t.skills.has(skill);
    if (f) fired++;
    if (g) tagged++;
    if (f && g) tp++;
    else if (f) fp.push(t.prompt);
    else if (g) fn.push(t.prompt);
  }
  console.log(
    `| ${cueId} | ${skill} | ${scope.length} (${basic ? 'basic' : 'advanced'}) | ${tagged} | ${fired} | ${tp} | ${(tp / fired).toFixed(2)} | ${(tp / tagged).toFixed(2)} | ${(tp / tasks.filter((t) => cue.test(t.prompt)).length).toFixed(2)} |`,
  );
  if (process.env.SHOW)
    console.error(`\n## ${cueId}\nFP:\n  ${fp.slice(0, Number(process.env.SHOW)).join('\n  ')}\nFN:\n  ${fn.slice(0, Number(process.env.SHOW)).join('\n  ')}`);
}
