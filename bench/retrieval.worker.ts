/// <reference lib="webworker" />
// Top-k-per-level retrieval over N random unit vectors (one tool, four levels), in a worker: our
// exact VectorIndex + topKPerLevel vs Orama's vector search (exact too: a full scan per `where`
// filter; similarity threshold -1 so that it returns the true top k), on the same vectors and
// queries, with both checked against a brute-force scan.
import { create, insertMultiple, search } from '@orama/orama';
import { VectorIndex, topKPerLevel } from '../src/core/retrieval';
import { LEVELS, type Level } from '../src/core/types';
import { mulberry32 } from '../src/core/eval/rng';

export interface RetrievalBenchRequest {
  n: number;
  dim: number;
  queries: number;
  k: number;
  seed: number;
}

export interface RetrievalBenchResult {
  n: number;
  dim: number;
  queries: number;
  k: number;
  ours: { buildMs: number; msPerQuery: number; exact: boolean; mismatches: number };
  orama: { buildMs: number; msPerQuery: number; recall: number };
  bruteForceMsPerQuery: number;
}

function unitVectors(count: number, dim: number, rand: () => number): Float32Array {
  const out = new Float32Array(count * dim);
  for (let i = 0; i < count; i++) {
    let sq = 0;
    for (let d = 0; d < dim; d++) {
      // Sum of uniforms ≈ normal: directions spread over the sphere.
      const x = rand() + rand() + rand() - 1.5;
      out[i * dim + d] = x;
      sq += x * x;
    }
    const inv = 1 / Math.sqrt(sq);
    for (let d = 0; d < dim; d++) out[i * dim + d]! *= inv;
  }
  return out;
}

const idOf = (i: number) => `m${String(i).padStart(7, '0')}`;
const levelOf = (i: number): Level => LEVELS[i % LEVELS.length]!;

/** Exact top k per level by a plain scan, ties by smaller id (our convention). */
function bruteForce(data: Float32Array, n: number, dim: number, q: Float32Array, k: number): Record<Level, string[]> {
  const scored: Record<string, { i: number; s: number }[]> = {};
  for (const level of LEVELS) scored[level] = [];
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let d = 0; d < dim; d++) s += q[d]! * data[i * dim + d]!;
    scored[levelOf(i)]!.push({ i, s });
  }
  const out = {} as Record<Level, string[]>;
  for (const level of LEVELS) {
    out[level] = scored[level]!.sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, k)
      .map((x) => idOf(x.i));
  }
  return out;
}

async function run(req: RetrievalBenchRequest): Promise<RetrievalBenchResult> {
  const { n, dim, queries, k, seed } = req;
  const rand = mulberry32(seed);
  const data = unitVectors(n, dim, rand);
  const qs = unitVectors(queries, dim, rand);
  const query = (j: number) => qs.subarray(j * dim, (j + 1) * dim);

  let t0 = performance.now();
  const index = new VectorIndex(dim);
  for (let i = 0; i < n; i++) index.add({ id: idOf(i), tool: 'tool-a', level: levelOf(i), vector: data.subarray(i * dim, (i + 1) * dim) });
  const ourBuild = performance.now() - t0;

  t0 = performance.now();
  const db = create({ schema: { tool: 'enum', level: 'enum', embedding: `vector[${dim}]` } as const });
  const docs = Array.from({ length: n }, (_, i) => ({
    id: idOf(i),
    tool: 'tool-a',
    level: levelOf(i),
    embedding: Array.from(data.subarray(i * dim, (i + 1) * dim)),
  }));
  await insertMultiple(db, docs, 2000);
  const oramaBuild = performance.now() - t0;

  const oramaQuery = async (q: Float32Array) => {
    const out = {} as Record<Level, string[]>;
    for (const level of LEVELS) {
      const res = await search(db, {
        mode: 'vector',
        vector: { value: Array.from(q), property: 'embedding' },
        similarity: -1,
        limit: k,
        where: { tool: { eq: 'tool-a' }, level: { eq: level } },
        includeVectors: false,
      });
      out[level] = res.hits.map((h) => h.id);
    }
    return out;
  };

  // Warm-up (JIT) for both.
  for (let j = 0; j < Math.min(3, queries); j++) {
    topKPerLevel(index, query(j), 'tool-a', k);
    await oramaQuery(query(j));
  }

  const ourResults: Record<Level, string[]>[] = [];
  t0 = performance.now();
  for (let j = 0; j < queries; j++) {
    const r = topKPerLevel(index, query(j), 'tool-a', k);
    ourResults.push(Object.fromEntries(LEVELS.map((l) => [l, r[l].map((h) => h.id)])) as Record<Level, string[]>);
  }
  const ourMs = (performance.now() - t0) / queries;

  const oramaResults: Record<Level, string[]>[] = [];
  t0 = performance.now();
  for (let j = 0; j < queries; j++) oramaResults.push(await oramaQuery(query(j)));
  const oramaMs = (performance.now() - t0) / queries;

  let mismatches = 0;
  let found = 0;
  let wanted = 0;
  t0 = performance.now();
  const truth = Array.from({ length: queries }, (_, j) => bruteForce(data, n, dim, query(j), k));
  const bruteMs = (performance.now() - t0) / queries;
  truth.forEach((t, j) => {
    for (const level of LEVELS) {
      if (t[level].join() !== ourResults[j]![level].join()) mismatches++;
      const got = new Set(oramaResults[j]![level]);
      found += t[level].filter((id) => got.has(id)).length;
      wanted += t[level].length;
    }
  });

  return {
    n,
    dim,
    queries,
    k,
    ours: { buildMs: ourBuild, msPerQuery: ourMs, exact: mismatches === 0, mismatches },
    orama: { buildMs: oramaBuild, msPerQuery: oramaMs, recall: wanted ? found / wanted : 0 },
    bruteForceMsPerQuery: bruteMs,
  };
}

self.onmessage = (e: MessageEvent<RetrievalBenchRequest>) => {
  run(e.data).then(
    (result) => self.postMessage(result),
    (err: unknown) => self.postMessage({ error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) }),
  );
};
