import { evaluate } from '../../src/core/eval';
import { createPredictor } from '../../src/core/predict';
import { CapabilityMemoryPredictor } from '../../src/core/capability/predictor';
import { loadSet, GENAI } from '../../scripts/bench/claims-bench';
const set = await loadSet(GENAI.data, { skills: GENAI.skills });
const r = await evaluate({ data: set.data, scale: set.scale, sizes: { train: 200, test: 800 }, seeds: [6,7,8,9,10,11,12,13,14,15], methods: [{ id: 'tool-mean', create: () => createPredictor('tool-mean') }, { id: 'memory', create: () => new CapabilityMemoryPredictor() }], vectors: set.vectors });
for (const m of ['tool-mean', 'memory']) {
  const avg = (f: (s: any) => number) => r.seeds.reduce((a, s) => a + f(s), 0) / r.seeds.length;
  console.log(m, avg((s) => s.methods[m].mean.mae).toFixed(4), avg((s) => s.methods[m].mean.rmse).toFixed(4), avg((s) => s.methods[m].mean.pearson).toFixed(4));
}
