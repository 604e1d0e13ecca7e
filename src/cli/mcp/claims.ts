/**
 * What a memory entry claims and whether it held, as the tools' answers show it beside a
 * contribution or a recalled entry (for the agent to weigh it): its level, status, facet, effect
 * (numbers rounded by the memory's one rule: the same numbers its text, bar and tooltip show),
 * profile and verdict. Depends on the file alone: answers make it once per entry and generation.
 */
import type { MemoryFile } from '../../core/memory-format';
import type { MemoryEntry } from '../../core/records';
import { numberStyle, roundShown } from '../../core/capability/number-style';

/** Four decimals: how the answers write scores, points and probabilities. */
export const round = (x: number) => Math.round(x * 1e4) / 1e4;

type Effect = NonNullable<MemoryEntry['effect']>;

/** An entry's effect with its numbers as shown (`shown`) or to four decimals (latent, q, lfsr, raw). */
function effectOf(fx: Effect, shown: (x: number) => number) {
  return {
    n: fx.n,
    deltaOwn: shown(fx.deltaOwn),
    deltaVsOthers: fx.deltaVsOthers === null ? null : shown(fx.deltaVsOthers),
    ci95: fx.ci95.map(shown),
    ...(fx.mean !== undefined ? { mean: shown(fx.mean) } : {}),
    ...(fx.othersMean !== undefined ? { othersMean: shown(fx.othersMean) } : {}),
    ...(fx.usual !== undefined ? { usual: shown(fx.usual) } : {}),
    ...(fx.rank !== undefined ? { rank: fx.rank, of: fx.of } : {}),
    ...(fx.latent ? { latent: { scale: 'logit', delta: round(fx.latent.delta), ci95: fx.latent.ci95.map(round) } } : {}),
    q: round(fx.q),
    ...(fx.lfsr !== undefined ? { lfsr: round(fx.lfsr) } : {}),
    ...(fx.raw ? { raw: { delta: round(fx.raw.delta), ci95: fx.raw.ci95.map(round) } } : {}),
  };
}

/** The claim fragment of entry `e` of `file` (`{}` for an id that is no entry: a shared-difficulty note). */
export function claimFor(file: MemoryFile, e: MemoryEntry | undefined) {
  if (!e) return {};
  // status: 'claim' (stated as a fact), 'tentative' (not a claim: weigh it as a hint), 'profile'
  // (the tool's overall standing). Entries of files before issue #25 count as claims.
  const status = e.profile ? 'profile' : e.effect ? (e.effect.status === 'tentative' ? 'tentative' : 'claim') : undefined;
  const fx = e.effect;
  const width = file.build.scale.max - file.build.scale.min;
  const passRates = file.build.capability?.report.contrastScale?.kind === 'logit';
  const style = numberStyle(width, passRates || fx?.latent !== undefined);
  const shown = (x: number) => roundShown(x, style);
  return {
    level: e.level,
    ...(status ? { status } : {}),
    ...(e.facet ? { facet: e.facet.name } : {}),
    ...(fx ? { effect: effectOf(fx, shown) } : {}),
    ...(e.profile
      ? { profile: { ...e.profile, mean: round(e.profile.mean), bestShare: round(e.profile.bestShare), advantage: round(e.profile.advantage) } }
      : {}),
    ...(e.verdict ? { verdict: e.verdict.verdict } : {}),
  };
}
