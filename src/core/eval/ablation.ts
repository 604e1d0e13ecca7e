/**
 * Top-k ablation for the neighbour methods: the same seeded splits, k = 0…K, a fixed k versus a
 * cut at the knee of the similarity curve (at most k kept). Rows carry the mean over seeds.
 */
import { meanSd } from './metrics';
import { evaluate, type EvalMethod, type EvaluateInput } from './evaluate';
import type { AnyPredictor } from '../predict/types';

export interface AblationRow {
  method: string;
  cut: 'fixed' | 'knee';
  k: number;
  mae: number;
  rmse: number;
  pearson: number;
  /** Mean pair accuracy over the evaluated pairs. */
  pairAcc: number;
}

export interface AblationInput extends Omit<EvaluateInput, 'methods'> {
  methods: readonly string[];
  ks: readonly number[];
  cuts?: readonly ('fixed' | 'knee')[];
  make(method: string, k: number, cut: 'fixed' | 'knee'): AnyPredictor;
}

export async function topKAblation(input: AblationInput): Promise<AblationRow[]> {
  const rows: AblationRow[] = [];
  const cuts = input.cuts ?? ['fixed', 'knee'];
  const methods: EvalMethod[] = [];
  const keys: { method: string; cut: 'fixed' | 'knee'; k: number }[] = [];
  for (const method of input.methods) {
    for (const cut of cuts) {
      for (const k of input.ks) {
        const id = `${method}@${cut}:${k}`;
        keys.push({ method, cut, k });
        methods.push({ id, create: () => input.make(method, k, cut) });
      }
    }
  }
  const report = await evaluate({ ...input, methods });
  methods.forEach((m, i) => {
    const res = report.seeds.map((s) => s.methods[m.id]!);
    rows.push({
      ...keys[i]!,
      mae: meanSd(res.map((r) => r.mean.mae)).mean,
      rmse: meanSd(res.map((r) => r.mean.rmse)).mean,
      pearson: meanSd(res.map((r) => r.mean.pearson)).mean,
      pairAcc: meanSd(res.map((r) => meanSd(r.pairs.map((p) => p.acc)).mean)).mean,
    });
  });
  return rows;
}
