/**
 * Pick rules compared offline on PICKS_DUMP files (pick-dump.ts), without rebuilding:
 *   npx tsx bench/drivers/pick-rules.ts FILE.jsonl [FILE2.jsonl …]
 * For every candidate pick (a facet whose likely best tool is not the overall best) it computes the
 * posterior probability of the present rule (picks.ts), the selection bootstrap (pick-bootstrap.ts) and
 * the step-down selection-adjusted test (pick-selective.ts) at a few levels, checks the candidate on
 * the build's unseen tasks (verifyPick), and prints per rule: picks, tested, ahead (unseen mean lead > 0), contradicted (its 95% interval below 0), direction; and the calibration
 * of each stated probability over every candidate (stated vs share ahead, by bin). Bench tooling only.
 */
import { readFileSync } from 'node:fs';
import { MIN_PICK_SELECTION } from '../../src/core/capability/pick-bootstrap';
import { pickCandidates, selectiveAdmits, verifyPick, MIN_PICK_PROBABILITY, MIN_PICK_REPLICATION, type PickInput } from '../../src/core/capability/picks';
import { pickSeed, selectionBootstrap } from '../../src/core/capability/pick-bootstrap';
import { normalCdf } from '../../src/core/capability/gauss';
import { leadCells, stepDown } from '../../src/core/capability/pick-selective';

interface DumpRecord {
  label: string;
  toolIds: string[];
  best: number;
  likelyBest: ({ tool: number; pBest: number } | null)[];
  facets: string[];
  v: (number | null)[][];
  x: string[];
  unseenTools: string[];
  unseenV: (number | null)[][];
  unseenX: string[];
}

export interface Row {
  label: string;
  facet: string;
  pick: string;
  n: number;
  posterior: number;
  replication: number;
  lead: number;
  bias: number;
  share: number;
  shifted: number;
  delta: number | null;
  verdict: string;
  /** Admitted by the step-down selection-adjusted test (pick-selective.ts), per "replication/alpha"; `selective`: at the rule's levels. */
  sel: Set<string>;
  selective: boolean;
}

const nums = (a: (number | null)[]) => Float64Array.from(a, (y) => (y === null ? NaN : y));
const bits = (s: string) => Uint8Array.from(s, (c) => (c === '1' ? 1 : 0));

function rowsOf(rec: DumpRecord, build: number): Row[] {
  const v = rec.v.map(nums);
  const x = rec.x.map(bits);
  const input: PickInput = { toolIds: rec.toolIds, v, scores: v, x, best: rec.best, likelyBest: rec.likelyBest };
  const unseen = new Map(rec.unseenTools.map((id, j) => [id, nums(rec.unseenV[j]!)]));
  const cells = leadCells(v, x, rec.best, (f) => rec.likelyBest[f] !== null, 10);
  const rule = selectiveAdmits(input);
  const admitted = new Map<string, Set<string>>();
  for (const rep of [0.5, 0.8]) for (const a of [0.05, 0.1, 0.2]) admitted.set(`${rep}/${a}`, stepDown(cells, a, rep));
  return pickCandidates(input).map((c) => {
    const boot = selectionBootstrap(v, x[c.facet]!, rec.best, c.tool, { seed: pickSeed(c.facet, c.tool) });
    const shifted = c.sd > 0 ? normalCdf((c.lead - boot.bias) / c.sd) : c.lead - boot.bias > 0 ? 1 : 0;
    const ver = verifyPick({ toolId: rec.toolIds[c.tool]!, over: rec.toolIds[rec.best]! }, unseen, bits(rec.unseenX[c.facet]!), { on: 'test', at: build });
    return {
      label: rec.label,
      facet: rec.facets[c.facet]!,
      pick: `${rec.toolIds[c.tool]} > ${rec.toolIds[rec.best]}`,
      n: c.n,
      posterior: c.probability,
      replication: c.replication,
      lead: c.lead,
      bias: boot.bias,
      share: boot.share,
      shifted,
      delta: ver.delta,
      verdict: ver.verdict,
      sel: new Set([...admitted].filter(([, keys]) => keys.has(`${c.facet}:${c.tool}`)).map(([k]) => k)),
      selective: rule.has(`${c.facet}:${c.tool}`),
    };
  });
}

function summary(name: string, rows: readonly Row[], chosen: (r: Row) => boolean): string {
  const made = rows.filter(chosen);
  const tested = made.filter((r) => r.delta !== null);
  const ahead = tested.filter((r) => r.delta! > 0).length;
  const contra = tested.filter((r) => r.verdict === 'contradicted').length;
  const dir = tested.length ? (ahead / tested.length).toFixed(3) : '—';
  return `${name}: ${made.length} picks, ${tested.length} tested, ${ahead} ahead, ${contra} contradicted, direction ${dir}`;
}

function calibration(name: string, rows: readonly Row[], p: (r: Row) => number): string {
  const edges = [0, 0.5, 0.7, 0.8, 0.9, 1.0001];
  const parts: string[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const inBin = rows.filter((r) => r.delta !== null && p(r) >= edges[i]! && p(r) < edges[i + 1]!);
    if (!inBin.length) continue;
    const stated = inBin.reduce((a, r) => a + p(r), 0) / inBin.length;
    const ahead = inBin.filter((r) => r.delta! > 0).length / inBin.length;
    parts.push(`[${edges[i]}, ${Math.min(1, edges[i + 1]!)}) n ${inBin.length} stated ${stated.toFixed(2)} ahead ${ahead.toFixed(2)}`);
  }
  return `${name} calibration: ${parts.join('; ')}`;
}

function main(): void {
  const rows: Row[] = [];
  let build = 0;
  for (const file of process.argv.slice(2))
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim()) rows.push(...rowsOf(JSON.parse(line) as DumpRecord, build++));
  const posteriorRule = (r: Row) => r.posterior >= MIN_PICK_PROBABILITY && r.replication >= MIN_PICK_REPLICATION;
  if (process.env.PICK_RULES_ROWS)
    for (const r of rows.filter((r) => r.posterior >= 0.5 || r.share >= 0.5))
      console.log(
        `${r.label} | ${r.facet} | ${r.pick} n ${r.n} post ${r.posterior.toFixed(3)} rep ${r.replication.toFixed(3)} lead ${r.lead.toFixed(3)} ` +
          `bias ${r.bias.toFixed(3)} share ${r.share.toFixed(3)} | unseen ${r.delta?.toFixed(3)} ${r.verdict}`,
      );
  console.log(`${build} builds, ${rows.length} candidates`);
  console.log(summary('posterior rule (before)', rows, posteriorRule));
  for (const t of [0.8, 0.85, 0.9, 0.95]) console.log(summary(`bootstrap share ≥ ${t}`, rows, (r) => r.share >= t));
  for (const t of [0.8, 0.9, 0.95]) console.log(summary(`shifted posterior ≥ ${t}`, rows, (r) => r.shifted >= t));
  for (const t of [0.8, 0.9]) console.log(summary(`posterior rule and share ≥ ${t}`, rows, (r) => posteriorRule(r) && r.share >= t));
  const beforeSelective = rows.filter((r) => posteriorRule(r) && r.share >= MIN_PICK_SELECTION);
  console.log(summary('the rule before the selection-adjusted test', beforeSelective, () => true));
  const made = beforeSelective.filter((r) => r.selective);
  console.log(
    `the rule (pickClaims): ${summary('', made, () => true).slice(2)}; mean stated probability ${(made.reduce((a, r) => a + r.posterior, 0) / Math.max(1, made.length)).toFixed(3)}`,
  );
  for (const a of [0.05, 0.1, 0.2]) {
    console.log(summary(`selective step-down p(0.5) ≤ ${a}`, rows, (r) => r.sel.has(`0.5/${a}`)));
    console.log(summary(`selective step-down p(0.8) ≤ ${a}`, rows, (r) => r.sel.has(`0.8/${a}`)));
    console.log(summary(`the rule before and step-down p(0.8) ≤ ${a}`, beforeSelective, (r) => r.sel.has(`0.8/${a}`)));
    console.log(summary(`posterior rule and step-down p(0.8) ≤ ${a}`, rows, (r) => posteriorRule(r) && r.sel.has(`0.8/${a}`)));
  }
  console.log(calibration('posterior', rows, (r) => r.posterior));
  console.log(calibration('bootstrap share', rows, (r) => r.share));
  console.log(calibration('shifted posterior', rows, (r) => r.shifted));
}

main();
