import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadData } from '../../../src/cli/load-data';
import { CapabilityMemoryPredictor } from '../../../src/core/capability/predictor';
import { noteSign } from '../../../src/core/capability/templates';
import { groundTruth, splitByTask } from '../../../src/core/eval';

const REPO = resolve(__dirname, '../../..');
const FULL = resolve(REPO, '../shared/data/genai_bench/genai_image.json');
const SKILLS = resolve(REPO, '../shared/data/genai_bench/genai_skills.json');

describe('every contribution line has the sign its words say', () => {
  it.skipIf(!existsSync(FULL))(
    'GenAI-Bench, 200 training tasks: claims and tentative entries by their level, dataset notes by hard / easy, on 100 unseen tasks × 6 tools',
    { timeout: 60_000 },
    async () => {
      const { dataset, experiences } = await loadData({ data: FULL, skills: SKILLS });
      const data = groundTruth(experiences, dataset.raterPolicy);
      const ids = [...new Set(data.map((p) => p.taskId))];
      const split = splitByTask(ids, { train: 200, test: 100 }, 4);
      const train = new Set(split.train);
      const predictor = new CapabilityMemoryPredictor();
      predictor.fit({
        scale: dataset.scale,
        examples: data
          .filter((p) => train.has(p.taskId))
          .map((p) => ({ taskId: p.taskId, prompt: p.prompt, toolId: p.toolId, score: p.score, ratings: p.ratings, categories: p.categories })),
      });
      // Tentative entries speak too where the fits agree with them (contributions.ts), labelled as such.
      const entries = new Map(predictor.entries.map((e) => [e.id, e]));
      const tasks = new Map(data.map((p) => [p.taskId, p]));
      let lines = 0;
      for (const id of split.test) {
        const t = tasks.get(id)!;
        for (const tool of [...new Set(data.map((p) => p.toolId))]) {
          const p = predictor.predict({ taskId: id, prompt: t.prompt, categories: t.categories }, tool);
          if (!p.clamped) expect(p.explanation.contributions.reduce((a, c) => a + c.points, p.explanation.mean)).toBeCloseTo(p.score, 6);
          for (const c of p.explanation.contributions) {
            const claim = entries.get(c.entryId);
            if (claim?.status === 'tentative') expect(c.text.startsWith('Tentative: '), c.text).toBe(true);
            if (claim && Math.abs(c.points) > 1e-12) {
              // The points are the change from the tool's usual lead (issue #34): the claim's headline delta,
              // not its level against the others (a tool can lead less than usual and still be above them).
              expect(Math.sign(c.points), c.text).toBe(Math.sign(claim.claim.delta));
              lines++;
            }
            if (c.entryId.startsWith('dataset:') && Math.abs(c.points) > 1e-12) {
              expect(Math.sign(c.points), c.text).toBe(noteSign(c.text));
              lines++;
            }
          }
        }
      }
      expect(lines).toBeGreaterThan(0);
    },
  );
});
