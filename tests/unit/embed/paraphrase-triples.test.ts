/**
 * Sanity of the static model's semantics on 20 hand-written (anchor, paraphrase, unrelated)
 * triples (./triples.ts): the paraphrase must be closer to the anchor than the unrelated sentence
 * in ≥ 18.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { cosine, rowOf } from '../../../src/core/embed';
import { createTransformersEmbedder } from '../../../src/node/transformers-embedder';
import { forbidNetwork } from './offline-guard';
import { TRIPLES } from './triples';

beforeAll(() => {
  forbidNetwork();
});
afterAll(() => vi.unstubAllGlobals());

it('ranks the paraphrase above the unrelated sentence in at least 18 of 20 triples', async () => {
  const embedder = createTransformersEmbedder();
  const out = await embedder.embed(TRIPLES.flat());
  let correct = 0;
  let para = 0;
  let unrel = 0;
  const failures: string[] = [];
  TRIPLES.forEach((t, i) => {
    const a = rowOf(out, 3 * i);
    const p = cosine(a, rowOf(out, 3 * i + 1));
    const u = cosine(a, rowOf(out, 3 * i + 2));
    para += p / TRIPLES.length;
    unrel += u / TRIPLES.length;
    if (p > u) correct++;
    else failures.push(`${t[0]} | para ${p.toFixed(3)} ≤ unrelated ${u.toFixed(3)}`);
  });
  console.info(`paraphrase triples: ${correct}/20 correct; mean cosine paraphrase ${para.toFixed(3)}, unrelated ${unrel.toFixed(3)}`);
  for (const f of failures) console.info(`  miss: ${f}`);
  expect(correct).toBeGreaterThanOrEqual(18);
});
