/**
 * The select path answers byte for byte what it answered before its optimisations (issue #36):
 * a fixed memory (tests/fixtures/serve/genai-200.json: `toolmem build-memory` on GenAI-Bench, 200
 * training prompts, seed 0, with card costs and latencies added to four tools) and 100 prompts of the
 * bundled demo file, each sent to /v1/select (5 shapes: all tools, a subset, a cost weight, a cost
 * limit, a latency limit with a duplicate candidate) and to /v1/predict, twice (the second round is
 * answered from the caches of repeated texts). The golden answers were recorded from main before the
 * select path changed (commit 00176a0), and recorded again for issue #34, whose answers only add
 * fields (a select's `reason`; `probability` on a contribution whose facet applies: 1 for this
 * memory, which has no facet detectors); after a change that is meant to alter answers (another memory
 * format, new answer fields), record them again:
 *   TOOLMEM_UPDATE_GOLDEN=1 npx vitest run tests/unit/serve/select-golden.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { servers, type Started } from './helpers';

const REPO = resolve(import.meta.dirname, '../../..');
const MEMORY = resolve(REPO, 'tests/fixtures/serve/genai-200.json');
const GOLDEN = resolve(REPO, 'tests/fixtures/serve/select-golden.jsonl');
const TOOLS = ['DALLE_3', 'DeepFloyd_I_XL_v1', 'Midjourney_6', 'SDXL_2_1', 'SDXL_Base', 'SDXL_Turbo'];

interface Golden {
  id: string;
  select: Record<string, unknown>;
  selectAnswer: string;
  predict: Record<string, unknown>;
  predictAnswer: string;
}

/** 100 demo prompts spread over the file (every 16th id). */
function prompts(): { id: string; prompt: string }[] {
  const demo = JSON.parse(readFileSync(resolve(REPO, 'public/demo/genai_image.json'), 'utf8')) as Record<string, { prompt: string }>;
  return Object.keys(demo)
    .sort()
    .filter((_, i) => i % 16 === 0)
    .slice(0, 100)
    .map((id) => ({ id, prompt: demo[id]!.prompt }));
}

function selectBody(i: number, task: string): Record<string, unknown> {
  switch (i % 5) {
    case 0:
      return { task, candidates: TOOLS };
    case 1:
      return { task, candidates: [TOOLS[i % 6], TOOLS[(i + 2) % 6], TOOLS[(i + 4) % 6]] };
    case 2:
      return { task, candidates: TOOLS, cost_weight: 10 };
    case 3:
      return { task, candidates: TOOLS, max_cost: 0.01 };
    default:
      return { task, candidates: ['SDXL_Turbo', 'DALLE_3', 'SDXL_2_1', 'SDXL_Turbo', 'Midjourney_6'], max_latency_ms: 5000 };
  }
}

async function answer(url: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return res.text();
}

const { start } = servers();
let s: Started;
beforeAll(async () => {
  s = await start({ memoryPath: MEMORY, watch: false });
}, 60_000);

describe('select path: the same answers, byte for byte', () => {
  it('answers /v1/select and /v1/predict for 100 prompts exactly as recorded, twice', async () => {
    const cases = prompts();
    expect(cases).toHaveLength(100);
    const now: Golden[] = [];
    for (const [i, c] of cases.entries()) {
      const select = selectBody(i, c.prompt);
      const predict = { tool: TOOLS[i % 6]!, task: c.prompt };
      now.push({
        id: c.id,
        select,
        selectAnswer: await answer(`${s.url}/v1/select`, select),
        predict,
        predictAnswer: await answer(`${s.url}/v1/predict`, predict),
      });
    }
    if (process.env.TOOLMEM_UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, now.map((g) => JSON.stringify(g)).join('\n') + '\n');
    const golden = readFileSync(GOLDEN, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Golden);
    expect(now.map((g) => g.id)).toEqual(golden.map((g) => g.id));
    for (const [i, g] of golden.entries()) {
      expect(now[i]!.select).toEqual(g.select);
      expect(now[i]!.selectAnswer, `select answer ${i} (${g.id})`).toBe(g.selectAnswer);
      expect(now[i]!.predictAnswer, `predict answer ${i} (${g.id})`).toBe(g.predictAnswer);
    }
    // Again, in reverse order: repeated texts come from the caches, and the answers must not change.
    for (const [i, g] of [...golden.entries()].reverse()) {
      expect(await answer(`${s.url}/v1/select`, g.select), `select answer ${i} (${g.id}), repeated`).toBe(g.selectAnswer);
      expect(await answer(`${s.url}/v1/predict`, g.predict), `predict answer ${i} (${g.id}), repeated`).toBe(g.predictAnswer);
    }
  }, 120_000);
});
