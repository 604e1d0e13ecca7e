/**
 * Sanity of the static model's semantics on 20 hand-written (anchor, paraphrase, unrelated)
 * triples (./triples.ts): the paraphrase must be closer to the anchor than the unrelated sentence
 * in ≥ 18.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTransformersEmbedder } from '../../../src/model-host/transformers-embedder';
import { forbidNetwork } from './offline-guard';
import { scoreTriples, TRIPLES } from './triples';

beforeAll(() => {
  forbidNetwork();
});
afterAll(() => vi.unstubAllGlobals());

it('ranks the paraphrase above the unrelated sentence in at least 18 of 20 triples', async () => {
  const embedder = createTransformersEmbedder();
  const out = await embedder.embed(TRIPLES.flat());
  const { won: correct, paraphrase: para, unrelated: unrel, misses: failures } = scoreTriples(out);
  console.info(`paraphrase triples: ${correct}/20 correct; mean cosine paraphrase ${para.toFixed(3)}, unrelated ${unrel.toFixed(3)}`);
  for (const f of failures) console.info(`  miss: ${f}`);
  expect(correct).toBeGreaterThanOrEqual(18);
});
