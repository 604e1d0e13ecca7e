/**
 * `--llm` of `toolmem eval` and `toolmem build-memory`: the engine spec parsed once, here, and the
 * command line's engine host (an endpoint's API key from TOOLMEM_LLM_API_KEY; no in-browser models).
 */
import { EngineSpecError, parseEngineSpec, resolveEngine, type EngineHost, type EngineSpec, type LlmEngine } from '../core/llm';
import { UsageError } from './io';

/** The CLI's engines: none and OpenAI-compatible endpoints, with the key from the environment. */
export const CLI_ENGINES: EngineHost = { apiKey: () => process.env.TOOLMEM_LLM_API_KEY };

/**
 * The spec of `--llm TEXT`; `refuse` names what this command cannot run (a browser-only engine,
 * or `none` where a model is required) as the usage error to show, or returns null.
 */
export function parseLlmArg(text: string, refuse: (spec: EngineSpec) => string | null): EngineSpec {
  let spec: EngineSpec;
  try {
    spec = parseEngineSpec(text);
  } catch (err) {
    if (err instanceof EngineSpecError) throw new UsageError(`--llm: ${err.message}`);
    throw err;
  }
  const why = refuse(spec);
  if (why) throw new UsageError(why);
  return spec;
}

/** The engine of a parsed `--llm`, loaded (an endpoint has nothing to load). */
export async function openCliEngine(spec: EngineSpec, signal?: AbortSignal): Promise<LlmEngine> {
  const engine = await resolveEngine(spec, CLI_ENGINES);
  await engine.load?.(signal ? { signal } : {});
  return engine;
}
