/**
 * GenAI-Bench, original `genai_image.json`: `{ "00000": { id, prompt, "prompt in Chinese",
 * models: { DALLE_3: [r1, r2, r3], … } } }` → one row per generator per rater. The optional
 * `genai_skills.json` sidecar maps skill → prompt indices (index i ↔ id `%05d`) and gives categories.
 */
import { z } from 'zod';
import { ValidationError } from '../../errors';
import { JsonScanner } from '../json-scanner';
import { TextSource } from '../text-source';
import type { CanonicalRow, DetectSample, MapResult, Preset, SourceRecord } from '../types';
import { GENAI_BENCH_MEANING, LIKERT_1_5 } from './shared';
import { quote } from '../../text/quote';

const Member = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  prompt: z.string(),
  models: z.record(z.string(), z.array(z.unknown())),
});

const SkillList = z.array(z.number().int().nonnegative());

/** Reads the skills sidecar: skill → prompt indices, inverted to index → skills (file order kept). */
export async function readSkills(input: AsyncIterable<string | Uint8Array>): Promise<Map<number, string[]>> {
  const scanner = new JsonScanner('skills sidecar');
  const byIndex = new Map<number, string[]>();
  const add = (skill: string, text: string): void => {
    const parsed = SkillList.safeParse(JSON.parse(text));
    if (!parsed.success) {
      throw new ValidationError(`Skills sidecar: ${quote(skill)} must be a list of prompt indices (whole numbers ≥ 0).`);
    }
    for (const index of parsed.data) {
      const list = byIndex.get(index) ?? [];
      if (!list.includes(skill)) list.push(skill);
      byIndex.set(index, list);
    }
  };
  for await (const chunk of new TextSource(input).chunks()) {
    for (const m of scanner.push(chunk)) {
      if (m.key === undefined) throw new ValidationError('Skills sidecar: expected an object of skill → prompt indices, found an array.');
      add(m.key, m.text);
    }
  }
  scanner.end();
  return byIndex;
}

function detect(sample: DetectSample): number {
  if (sample.format !== 'json') return 0;
  const data = sample.first?.data;
  if (!data || typeof data.models !== 'object' || data.models === null || typeof data.prompt !== 'string') return 0;
  let score = 0.9;
  if ('prompt in Chinese' in data) score += 0.05;
  if (/genai/i.test(sample.fileName)) score += 0.04;
  return score;
}

function mapMember(record: SourceRecord, skills: Map<number, string[]> | undefined, fileName: string): MapResult {
  const parsed = Member.safeParse(record.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const column = issue ? issue.path.join('.') : '';
    return {
      rows: [],
      errors: [
        {
          file: fileName,
          row: record.row,
          column,
          reason: `not a GenAI-Bench prompt record: ${column ? `${quote(column)} ` : ''}${issue?.message ?? 'unexpected shape'}`,
          raw: { key: record.key, ...record.data },
        },
      ],
    };
  }
  const { id, prompt, models } = parsed.data;
  const taskId = id !== undefined ? String(id) : (record.key ?? String(record.row));
  const index = /^\d+$/.test(taskId) ? Number(taskId) : NaN;
  const categories = skills?.get(index) ?? [];
  const rows: CanonicalRow[] = [];
  for (const [tool, ratings] of Object.entries(models)) {
    ratings.forEach((value, r) => {
      const rater = `rater${r + 1}`;
      const score = typeof value === 'number' || typeof value === 'string' ? value : value === null ? null : JSON.stringify(value);
      rows.push({
        taskId,
        prompt,
        tool,
        score,
        rater,
        categories: [...categories],
        scoreSource: 'human',
        source: {
          row: record.row,
          columns: { id: 'id', prompt: 'prompt', tool: 'models', score: `models.${tool}[${r}]`, rater: `models.${tool}[${r}]` },
          raw: { id: taskId, prompt, model: tool, rater, score: value },
        },
      });
    });
  }
  return { rows, errors: [] };
}

/** Both GenAI-Bench forms (this one and genai-bench-long): 1–5 ratings of generated images. */
/** The paper's protocol split: 200 training prompts, 800 test prompts. */
export const GENAI_BENCH_SPLIT = { train: 200, test: 800 };

export const GENAI_BENCH_DEFAULTS: Preset['defaults'] = {
  name: 'GenAI-Bench',
  scale: LIKERT_1_5,
  // The ToolMem paper uses rater 1 as ground truth.
  raterPolicy: { kind: 'rater', rater: 'rater1' },
  modality: 'text→image',
};

export const genaiBench: Preset = {
  id: 'genai-bench',
  scaleMeaning: GENAI_BENCH_MEANING,
  split: GENAI_BENCH_SPLIT,
  label: 'GenAI-Bench (genai_image.json)',
  defaults: GENAI_BENCH_DEFAULTS,
  detect,
  async prepare(ctx) {
    const skills = ctx.sidecars?.skills ? await readSkills(ctx.sidecars.skills) : undefined;
    return { map: (record) => mapMember(record, skills, ctx.fileName) };
  },
};
