/**
 * lm-evaluation-harness's run summary, `results_<date>.json` (`{"results": {<task>: {metric,… }},
 * "configs", "versions", "n-samples", "config", "model_name", …}`): aggregate metrics only. It is
 * not imported itself; it names the model of the samples files beside it, and a file of this kind
 * given as the data is refused with the names of the samples files to import instead.
 */
import { own } from '../../data-keys';
import { ValidationError } from '../../errors';
import { quote } from '../../text/quote';
import { clipList } from '../bounded';
import { TextSource } from '../text-source';
import { isRecord } from './messages';

/** A results file is small (kilobytes); a larger "results" file is not read whole. */
const RESULTS_MAX_CHARS = 16 * 1024 * 1024;
const DATE = /results_(\d{4}-\d{2}-\d{2}T[\d-]+(?:\.\d+)?)\.json$/;

/** True for the head of a results_*.json: a top-level "results" object next to the harness's own keys. */
export function looksLikeLmEvalResults(head: string): boolean {
  return /^\s*\{\s*"results"\s*:\s*\{/.test(head) && /"(?:n-samples|configs|higher_is_better|lm_eval_version|group_subtasks)"\s*:/.test(head);
}

async function readAll(input: AsyncIterable<string | Uint8Array>, fileName: string): Promise<Record<string, unknown>> {
  const source = new TextSource(input);
  let text = '';
  for await (const chunk of source.chunks()) {
    text += chunk;
    if (text.length > RESULTS_MAX_CHARS)
      throw new ValidationError(
        `${quote(fileName)} is over ${RESULTS_MAX_CHARS.toLocaleString('en-US')} characters: not an lm-evaluation-harness results file.`,
      );
  }
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return value;
  } catch {
    // reported below
  }
  throw new ValidationError(`The lm-evaluation-harness results file beside ${quote(fileName)} is not a JSON object.`);
}

const modelOf = (results: Record<string, unknown>): string | undefined => {
  const name = own(results, 'model_name');
  if (typeof name === 'string' && name.trim() !== '') return name.trim();
  const config = own(results, 'config');
  const args = isRecord(config) ? own(config, 'model_args') : undefined;
  const pretrained = isRecord(args) ? own(args, 'pretrained') : typeof args === 'string' ? /(?:^|,)pretrained=([^,]+)/.exec(args)?.[1] : undefined;
  return typeof pretrained === 'string' && pretrained.trim() !== '' ? pretrained.trim() : undefined;
};

/** The model a results file names (`model_name`, else `config.model_args.pretrained`). */
export async function readResultsModel(input: AsyncIterable<string | Uint8Array>, samplesFile: string): Promise<string | undefined> {
  return modelOf(await readAll(input, samplesFile));
}

/** The refusal for a results file given as the data: what it holds and which files to import. */
export async function refuseResultsFile(input: AsyncIterable<string | Uint8Array>, fileName: string): Promise<never> {
  const results = await readAll(input, fileName);
  // Tasks with a config have samples files; groups (aggregates of tasks) have none.
  const configs = own(results, 'configs');
  const block = isRecord(configs) ? configs : own(results, 'results');
  const tasks = isRecord(block) ? Object.keys(block) : [];
  const date = DATE.exec(fileName)?.[1] ?? '<date>';
  const model = modelOf(results);
  throw new ValidationError(
    `This is lm-evaluation-harness's run summary (results file${model ? ` of ${quote(model)}` : ''}): it holds aggregate metrics ` +
      `for ${tasks.length} task${tasks.length === 1 ? '' : 's'}, not per-sample scores. Import the samples files beside it instead, ` +
      `samples_<task>_${date}.jsonl${tasks.length ? ` for ${clipList(tasks, 600, 'tasks')}` : ''} — the harness writes them when run ` +
      `with --log_samples. Given with them, this file names their model.`,
  );
}
