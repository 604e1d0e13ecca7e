/**
 * Pairwise judgements as memory evidence (issue #26): per task, each tool's share of the
 * comparisons it took part in that it won, a tie counting ½, on a 0–1 scale — pooled over raters
 * and opponents. Written as experiences of a derived dataset, these are a score table like any
 * other, so the capability build applies its shrinkage and claim checks unchanged: a tool that
 * loses most pairs on a facet becomes a claim only under the same lfsr and evidence rules.
 * Each experience's feedback names the pairs behind its share (the entry's evidence shows it).
 */
import { compareIds, experienceKey } from '../ids';
import type { Dataset, Experience, Preference, ScoreScale } from '../types';

/** The derived score: 0 = lost every comparison, 1 = won every one. */
export const PAIRWISE_SCALE: ScoreScale = { min: 0, max: 1, direction: 'higher-better', integer: false };
/** The one rater of the derived experiences. */
export const PAIRWISE_RATER = 'pairwise';
/** Pairs named in one experience's feedback; the rest are counted ("… and 3 more"). */
const PAIRS_SHOWN = 6;

export interface PairwiseTaskInfo {
  prompt: string;
  categories: string[];
}

interface Bout {
  opponent: string;
  outcome: 'won' | 'tie' | 'lost';
  rater: string;
}

/** The derived dataset's id and name for the judgements of `source`. */
export function pairwiseDatasetOf(source: Pick<Dataset, 'id' | 'name'>, at: number): Dataset {
  return {
    id: `${source.id}-pairwise`,
    name: `${source.name} · pairwise`,
    source: `pairwise judgements of ${source.id}`,
    preset: 'pairwise',
    scale: PAIRWISE_SCALE,
    raterPolicy: { kind: 'mean' },
    createdAt: at,
  };
}

function describe(bouts: readonly Bout[], won: number, ties: number): string {
  const shown = bouts.slice(0, PAIRS_SHOWN).map((b) => `vs ${b.opponent}: ${b.outcome} (${b.rater})`);
  const more = bouts.length > PAIRS_SHOWN ? `; … and ${bouts.length - PAIRS_SHOWN} more` : '';
  const tie = ties ? `, ${ties} tie${ties === 1 ? '' : 's'}` : '';
  return (
    `From pairwise judgements: won ${won} of ${bouts.length} comparison${bouts.length === 1 ? '' : 's'}${tie} (a tie counts ½) ` +
    `— ${shown.join('; ')}${more}.`
  );
}

/**
 * One experience per task × tool that was compared: score = (wins + ½ ties) / comparisons, into
 * `datasetId` (the derived dataset). Tasks missing from `tasks` (no prompt known) are left out.
 * Sorted by task, then tool; deterministic for the same judgements.
 */
export function pairwiseExperiences(
  prefs: readonly Preference[],
  tasks: ReadonlyMap<string, PairwiseTaskInfo>,
  opts: { datasetId: string; importId: string; at: number },
): Experience[] {
  const byTaskTool = new Map<string, { taskId: string; toolId: string; bouts: Bout[] }>();
  const add = (taskId: string, toolId: string, bout: Bout) => {
    const key = `${taskId}\u0000${toolId}`;
    (byTaskTool.get(key) ?? byTaskTool.set(key, { taskId, toolId, bouts: [] }).get(key)!).bouts.push(bout);
  };
  const ordered = [...prefs].sort(
    (a, b) => compareIds(a.taskId, b.taskId) || a.toolA.localeCompare(b.toolA) || a.toolB.localeCompare(b.toolB) || a.rater.localeCompare(b.rater),
  );
  for (const p of ordered) {
    if (!tasks.has(p.taskId)) continue;
    add(p.taskId, p.toolA, { opponent: p.toolB, outcome: p.winner === 'A' ? 'won' : p.winner === 'B' ? 'lost' : 'tie', rater: p.rater });
    add(p.taskId, p.toolB, { opponent: p.toolA, outcome: p.winner === 'B' ? 'won' : p.winner === 'A' ? 'lost' : 'tie', rater: p.rater });
  }
  const out: Experience[] = [];
  for (const { taskId, toolId, bouts } of byTaskTool.values()) {
    const won = bouts.filter((b) => b.outcome === 'won').length;
    const ties = bouts.filter((b) => b.outcome === 'tie').length;
    const task = tasks.get(taskId)!;
    out.push({
      id: experienceKey(opts.datasetId, taskId, toolId, PAIRWISE_RATER),
      datasetId: opts.datasetId,
      taskId,
      prompt: task.prompt,
      toolId,
      score: (won + ties / 2) / bouts.length,
      rater: PAIRWISE_RATER,
      scoreSource: 'human',
      categories: task.categories,
      importId: opts.importId,
      createdAt: opts.at,
      feedback: describe(bouts, won, ties),
    });
  }
  return out.sort((a, b) => compareIds(a.taskId, b.taskId) || a.toolId.localeCompare(b.toolId));
}
