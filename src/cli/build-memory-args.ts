/**
 * The arguments of `toolmem build-memory`: its usage text and the parser that checks them (the
 * engine spec, split, tools and options) before any data is read.
 */
import { isBrowserEngine, isNoEngine, type EngineSpec } from '../core/llm';
import { DEFAULT_INDUCE_SETTINGS } from '../core/memory';
import { quote } from '../core/text/quote';
import { strictArgs, UsageError, wholeNumberArg } from './io';
import { DATA_OPTIONS, DATA_USAGE, dataArgs, type DataArgs } from './load-data';
import { parseLlmArg } from './llm-arg';

export const USAGE = `Usage: toolmem build-memory --data FILE --out MEMORY.json [options]

Learns, per tool, what it is good and bad at from scored experiences, and writes the memory as JSON.

Options:
${DATA_USAGE}
  --out FILE           where to write the memory (required)
  --train N            learn from N training tasks of a seeded random split (default: all tasks)
  --seed S             seed of the split (default 0)
  --tools A,B          only these tools (default: all, in name order)
  --llm SPEC           none (default: the capability analysis only) or openai:URL#MODEL
                       (e.g. openai:http://127.0.0.1:8080/v1#qwen2.5-7b-instruct);
                       an API key is read from TOOLMEM_LLM_API_KEY when set
  --k N                entries retrieved per level for each update (default 6)
  --max-lfsr P         a claim's largest local false sign rate, the chance its sign is wrong
                       (default 0.05; entries up to 0.2 are kept as tentative, never as claims)
  --no-clusters        skip the capability analysis (needs --llm)
  --no-critiques       do not distil critiques from low-scoring experiences
  --json               print the build summary as JSON
  -h, --help           show this help

Exit codes: 0 memory written, 1 usage error, 2 data unreadable or build failed.`;

export interface ParsedArgs extends DataArgs {
  out: string;
  train?: number;
  seed: number;
  tools?: string[];
  llm: EngineSpec;
  k: number;
  maxLfsr?: number;
  clusters: boolean;
  critiques: boolean;
  json: boolean;
  help: boolean;
}

/** A probability in (0, 0.2]: above that a claim could not be told from the tentative entries. */
function probabilityArg(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const x = /^(0(\.\d+)?|\.\d+)$/.test(text.trim()) ? Number(text) : NaN;
  if (!(x > 0 && x <= 0.2)) throw new UsageError(`--${name} ${quote(text)}: expected a number above 0 and at most 0.2, e.g. 0.05.`);
  return x;
}

export function parse(args: string[]): ParsedArgs {
  const values = strictArgs(args, {
    ...DATA_OPTIONS,
    out: { type: 'string' },
    train: { type: 'string' },
    seed: { type: 'string' },
    tools: { type: 'string' },
    llm: { type: 'string', default: 'none' },
    k: { type: 'string' },
    'max-lfsr': { type: 'string' },
    'no-clusters': { type: 'boolean', default: false },
    'no-critiques': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const help = values.help === true;
  const data = dataArgs(values, !help);
  if (!help && !values.out) throw new UsageError('--out FILE is required.');
  const text = values.llm ?? 'none';
  const llm = parseLlmArg(text, (spec) =>
    isBrowserEngine(spec)
      ? `--llm: ${quote(text)} runs only in the browser app; the CLI takes none or openai:URL#MODEL (a llama.cpp server serves GGUF files the same way).`
      : null,
  );
  const clusters = values['no-clusters'] !== true;
  if (!help && !clusters && isNoEngine(llm)) throw new UsageError('--no-clusters needs --llm: without an LLM the capability analysis is the whole memory.');
  const train = wholeNumberArg('train', values.train, 1);
  const maxLfsr = probabilityArg('max-lfsr', values['max-lfsr']);
  const tools = values.tools
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return {
    ...data,
    out: values.out ?? '',
    ...(train !== undefined ? { train } : {}),
    seed: wholeNumberArg('seed', values.seed, 0) ?? 0,
    ...(tools?.length ? { tools } : {}),
    llm,
    k: wholeNumberArg('k', values.k, 1) ?? DEFAULT_INDUCE_SETTINGS.k,
    ...(maxLfsr !== undefined ? { maxLfsr } : {}),
    clusters,
    critiques: values['no-critiques'] !== true,
    json: values.json === true,
    help,
  };
}
