/**
 * Model names as different evaluation tools write them (issue #27): lm-evaluation-harness folders
 * say `Qwen__Qwen3-8B` where Inspect and HELM say `Qwen/Qwen3-8B`; providers answer with a dated id
 * (`gpt-4o-mini-2024-07-18`) for the run's `openai/gpt-4o-mini`. Such names are offered for merging
 * by the look-alike resolver (validate.ts → NearMissTool), never merged silently.
 */

/** A date suffix providers append: `-2024-07-18`, `-20240718`, `@20240718`. */
const DATED = /[-@](?:\d{4}-\d{2}-\d{2}|\d{8})$/;

/** The parts that name the model: lower case, `__` read as `/`, without the provider and a date suffix. */
export function modelKey(name: string): string {
  const plain = name.trim().toLowerCase().replace(/__/g, '/').replace(DATED, '');
  return plain.slice(plain.lastIndexOf('/') + 1);
}

/** The `org/model` the harness's folder name `org__model` stands for; undefined for other names. */
export function harnessFolderModel(folder: string): string | undefined {
  const m = /^([^_/\\]+(?:[-.][^_/\\]+)*)__([^/\\]+)$/.exec(folder);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/** A known tool that is the same model as `tool` under another naming (not the same string). */
export function sameModelAs(tool: string, known: Iterable<string>): string | undefined {
  const key = modelKey(tool);
  if (key === '') return undefined;
  for (const name of known) if (name !== tool && modelKey(name) === key) return name;
  return undefined;
}
