import { NotFoundError, StaleLabelError, ValidationError } from '../../core/errors';
import { toggleCase } from '../../core/memory/test-cases';
import type { Repositories } from '../../core/repositories';
import { quote } from '../../core/text/quote';
import type { Preference, ScoreScale } from '../../core/types';
import type { Handlers } from '../../rpc';
import type { EditApi } from './api';
import { describeStale, labelMismatch, type LabelQueues, type StaleProblem } from '../label/queues';

/** Why `value` is not a score on `scale`, or null when it is one. */
export function scoreProblem(value: number, scale: ScoreScale, datasetName: string): string | null {
  const { min, max, integer } = scale;
  if (Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value))) return null;
  return `A score for ${quote(datasetName)} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}.`;
}

/** Dataset id → name for a refusal's message (the target's dataset and the selected ones). */
async function datasetNames(repos: Repositories, datasetId: string, p: StaleProblem): Promise<(id: string) => string> {
  const ids = [datasetId, ...(p.kind === 'dataset' ? p.selected : [])];
  const names = new Map<string, string>();
  for (const id of ids) names.set(id, (await repos.datasets.get(id))?.name ?? id);
  return (id) => names.get(id) ?? id;
}

/**
 * A pairwise choice names its dataset, task and two tools: refused (nothing written) unless the task
 * has an output of each tool in that dataset, so a choice made as the page changed dataset or pair
 * cannot land on a task that is not the one compared (issue #35).
 */
async function checkPair(repos: Repositories, p: Preference, datasetName: string): Promise<void> {
  if (p.toolA === p.toolB) throw new ValidationError(`A choice compares two tools, not ${quote(p.toolA)} with itself.`);
  const rows = await repos.experiences.byTask(p.datasetId, p.taskId);
  const items = (await repos.labels.items(p.datasetId)).filter((i) => i.taskId === p.taskId);
  const has = new Set([...rows, ...items].map((r) => r.toolId));
  const missing = [p.toolA, p.toolB].filter((t) => !has.has(t));
  if (missing.length) {
    const what = missing.map((t) => quote(t)).join(' and ');
    throw new StaleLabelError(`Not saved: task ${quote(p.taskId)} of ${quote(datasetName)} has no output of ${what}. Nothing was written.`);
  }
}

type Req<K extends keyof EditApi> = EditApi[K]['req'];
type Res<K extends keyof EditApi> = EditApi[K]['res'];

async function datasetOf(repos: Repositories, id: string) {
  const found = await repos.datasets.get(id);
  if (!found) throw new NotFoundError(`The dataset ${quote(id)} does not exist (deleted in another tab?).`);
  return found;
}

/**
 * The hand edits (edit-api.ts). Each is one repository write (or one transaction), checked here
 * rather than in the page so that every caller gets the same rules. The undo of a label or a
 * choice is the caller's: it keeps what `save…` returned and hands it to `restore…`.
 */
export function createEditHandlers(repos: Repositories, queues: LabelQueues): Handlers<EditApi> {
  return {
    saveLabel: (req) => saveLabel(repos, queues, req),
    restoreLabel: (req) => restoreLabel(repos, req),
    savePreference: (req) => savePreference(repos, req),
    restorePreference: (req) => restorePreference(repos, req),
    addItem: (req) => addItem(repos, req),
    setRaterPolicy: (req) => setRaterPolicy(repos, req),
    removeDataset: (req) => removeDataset(repos, req),
    saveTool: (req) => saveTool(repos, req),
    setExamplePrices: (req) => setExamplePrices(repos, req),
    toggleTestCase: (req) => toggleTestCase(repos, req),
  };
}

async function saveLabel(repos: Repositories, queues: LabelQueues, { label, shown }: Req<'saveLabel'>): Promise<Res<'saveLabel'>> {
  const mismatch = labelMismatch(label, shown);
  if (mismatch) throw new ValidationError(mismatch);
  // Checked before the first wait: a queue the page begins after this call cannot change the answer.
  const stale = queues.problem(shown);
  if (stale) throw new StaleLabelError(describeStale(stale, shown, await datasetNames(repos, shown.datasetId, stale)));
  const d = await datasetOf(repos, label.datasetId);
  const problem = scoreProblem(label.score, d.scale, d.name);
  if (problem) throw new ValidationError(problem);
  const previous = (await repos.experiences.get(label.id)) ?? null;
  // A changed score keeps when the label was first given.
  await repos.experiences.put(previous ? { ...label, createdAt: previous.createdAt } : label);
  return { previous };
}

async function restoreLabel(repos: Repositories, { id, previous }: Req<'restoreLabel'>): Promise<Res<'restoreLabel'>> {
  if (previous) await repos.experiences.put(previous);
  else await repos.experiences.remove(id);
  return null;
}

async function savePreference(repos: Repositories, { preference }: Req<'savePreference'>): Promise<Res<'savePreference'>> {
  const d = await datasetOf(repos, preference.datasetId);
  await checkPair(repos, preference, d.name);
  const previous = (await repos.labels.preferences(preference.datasetId)).find((p) => p.id === preference.id) ?? null;
  await repos.labels.putPreference(preference);
  return { previous };
}

async function restorePreference(repos: Repositories, { id, previous }: Req<'restorePreference'>): Promise<Res<'restorePreference'>> {
  if (previous) await repos.labels.putPreference(previous);
  else await repos.labels.removePreference(id);
  return null;
}

async function addItem(repos: Repositories, { item, tool, dataset: fresh, image }: Req<'addItem'>): Promise<Res<'addItem'>> {
  if (fresh && fresh.id !== item.datasetId)
    throw new ValidationError(`The item belongs to ${quote(item.datasetId)}, not to the new dataset ${quote(fresh.id)}.`);
  if (fresh && !(await repos.datasets.get(fresh.id))) await repos.datasets.put(fresh);
  else await datasetOf(repos, item.datasetId);
  if (tool.id !== item.toolId) throw new ValidationError(`The item is an output of ${quote(item.toolId)}, not of ${quote(tool.id)}.`);
  await repos.tools.ensure([tool]);
  await repos.labels.putItem(item, image);
  return null;
}

async function setRaterPolicy(repos: Repositories, { datasetId, policy }: Req<'setRaterPolicy'>): Promise<Res<'setRaterPolicy'>> {
  await repos.datasets.put({ ...(await datasetOf(repos, datasetId)), raterPolicy: policy });
  return null;
}

async function removeDataset(repos: Repositories, { datasetId }: Req<'removeDataset'>): Promise<Res<'removeDataset'>> {
  await repos.datasets.remove(datasetId);
  return null;
}

async function saveTool(repos: Repositories, { tool }: Req<'saveTool'>): Promise<Res<'saveTool'>> {
  const previous = await repos.tools.get(tool.id);
  if (!previous) throw new NotFoundError(`There is no tool ${quote(tool.id)} (deleted in another tab?).`);
  await repos.tools.put(tool);
  return { previous };
}

async function setExamplePrices(repos: Repositories, { prices }: Req<'setExamplePrices'>): Promise<Res<'setExamplePrices'>> {
  let set = 0;
  for (const [id, amount] of prices) {
    if (!Number.isFinite(amount) || amount < 0) throw new ValidationError(`An example price must be a number of at least 0, not ${quote(String(amount))}.`);
    const tool = await repos.tools.get(id);
    if (!tool || tool.price) continue;
    await repos.tools.put({ ...tool, price: { amount, per: 'call', example: true } });
    set++;
  }
  return { set };
}

async function toggleTestCase(repos: Repositories, { toolId, datasetId, taskId }: Req<'toggleTestCase'>): Promise<Res<'toggleTestCase'>> {
  const tool = await repos.tools.get(toolId);
  if (!tool) throw new NotFoundError(`There is no tool ${quote(toolId)}.`);
  const testCases = toggleCase(tool.testCases ?? [], { datasetId, taskId });
  await repos.tools.put({ ...tool, testCases });
  return { pinned: testCases.length > (tool.testCases?.length ?? 0) };
}
