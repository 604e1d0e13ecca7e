/**
 * What an evaluation stopped part-way has to show (Ctrl-C in `toolmem eval`): the latest results
 * of every seed as its methods finish, and from them the largest honest report — whole seeds only,
 * or, when no seed finished, the first seed's finished methods, said so in the note.
 */
import { dict, own } from '../../core/data-keys';
import type { EvalReport, SeedResult } from '../../core/eval/evaluate';

export class PartialResults {
  private readonly bySeed = new Map<number, SeedResult>();
  constructor(private readonly methods: readonly string[]) {}

  record(seed: SeedResult): void {
    this.bySeed.set(seed.seed, seed);
  }

  /**
   * What was finished when the run stopped: every seed whose methods all finished; if none did,
   * the first seed with the methods it finished. Null when no method finished at all.
   */
  report(base: Pick<EvalReport, 'tools' | 'toolPairs' | 'sizes'>): { report: EvalReport; complete: number[]; note: string } | null {
    const seeds = [...this.bySeed.values()];
    const complete = seeds.filter((s) => this.methods.every((m) => own(s.methods, m)));
    if (complete.length) {
      return {
        report: { ...base, seeds: complete, methods: [...this.methods] },
        complete: complete.map((s) => s.seed),
        note: `${complete.length} complete seed(s) of the run: ${complete.map((s) => s.seed).join(', ')}`,
      };
    }
    const first = seeds[0];
    if (!first) return null;
    const done = this.methods.filter((m) => own(first.methods, m));
    if (!done.length) return null;
    const methods = dict<SeedResult['methods'][string]>();
    for (const m of done) methods[m] = own(first.methods, m)!;
    return {
      report: { ...base, seeds: [{ ...first, methods }], methods: done },
      complete: [],
      note: `seed ${first.seed} only, methods ${done.join(', ')} (the others did not finish)`,
    };
  }
}
