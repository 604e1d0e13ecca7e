/**
 * The llm worker's handlers: in-browser engines by spec, loaded once and lazily. Only one in-browser
 * model is kept in memory at a time (a second one would double the RAM/VRAM a tab uses); loading
 * another spec unloads the previous one. Engine libraries are imported on first use, so a tab that
 * never runs a local model never downloads them.
 */
import { ValidationError } from '../core/errors';
import type { LlmEngine } from '../core/llm/engine';
import { isBrowserEngine, parseEngineSpec, formatEngineSpec, type BrowserEngineSpec } from '../core/llm/spec';
import { expose, type CallContext, type Handlers } from '../rpc';
import type { LlmApi } from './llm-api';
import { deleteModelFile, listModelFiles, openModelFile, saveModelFile } from './local-models';

/** How each in-browser kind is loaded (its library imported on first use): a table, not a comparison of kinds. */
const BROWSER_LOADERS: { [K in BrowserEngineSpec['kind']]: (spec: Extract<BrowserEngineSpec, { kind: K }>) => Promise<LlmEngine> } = {
  webllm: async (spec) => {
    const { WebLlmEngine } = await import('./webllm-engine');
    return new WebLlmEngine(spec.model);
  },
  wllama: async (spec) => {
    const { WllamaEngine } = await import('./wllama-engine');
    const source = spec.source.startsWith('file:')
      ? { name: spec.source.slice(5), blob: await openModelFile(spec.source.slice(5)) }
      : { name: spec.source.split('/').pop() || spec.source, url: spec.source };
    return new WllamaEngine({
      id: formatEngineSpec(spec),
      source,
      ...(spec.bias ? { bias: spec.bias } : {}),
      ...(spec.contextSize ? { contextSize: spec.contextSize } : {}),
    });
  },
};

function createBrowserEngine(spec: BrowserEngineSpec): Promise<LlmEngine> {
  // The loader of spec.kind takes spec's own member of the union (a correlated union TypeScript cannot follow).
  return (BROWSER_LOADERS[spec.kind] as (s: BrowserEngineSpec) => Promise<LlmEngine>)(spec);
}

/** The one in-browser model a tab keeps: loading another spec unloads the previous one. */
class OneModel {
  current: { spec: string; engine: Promise<LlmEngine> } | null = null;

  async engineFor(specText: string): Promise<LlmEngine> {
    const spec = parseEngineSpec(specText);
    if (!isBrowserEngine(spec)) throw new ValidationError(`The llm worker runs in-browser models (wllama, WebLLM); '${specText}' is not one.`);
    const key = formatEngineSpec(spec);
    if (this.current?.spec !== key) {
      const previous = this.current;
      const mine = { spec: key, engine: createBrowserEngine(spec) };
      this.current = mine;
      mine.engine.catch(() => {
        if (this.current === mine) this.current = null;
      });
      if (previous) void previous.engine.then((e) => e.dispose?.()).catch(() => undefined);
    }
    return this.current!.engine;
  }

  async load(specText: string, ctx: CallContext<LlmApi['load']['progress']>): Promise<LlmApi['load']['res']> {
    const engine = await this.engineFor(specText);
    try {
      await engine.load?.({ signal: ctx.signal, onProgress: (p) => ctx.progress(p) });
    } catch (err) {
      // A failed load must not leave a broken engine cached: the next attempt starts afresh.
      if (this.current && (await this.current.engine.catch(() => null)) === engine) this.current = null;
      throw err;
    }
    return { id: engine.id, capabilities: engine.capabilities };
  }

  async unload(specText: string | undefined): Promise<{ unloaded: number }> {
    if (!this.current || (specText && formatEngineSpec(parseEngineSpec(specText)) !== this.current.spec)) return { unloaded: 0 };
    const gone = this.current;
    this.current = null;
    await (await gone.engine).dispose?.();
    return { unloaded: 1 };
  }
}

export function createLlmHandlers(): Handlers<LlmApi> {
  const model = new OneModel();
  const handlers: Handlers<LlmApi> = {
    load: ({ spec }, ctx) => model.load(spec, ctx),
    chat: async ({ spec, messages, options }, ctx) =>
      (await model.engineFor(spec)).chat(messages, { ...options, signal: ctx.signal, onToken: (t) => ctx.progress(t) }),
    unload: ({ spec }) => model.unload(spec),
    loaded: async () => (model.current ? [model.current.spec] : []),
    webgpu: async () => (await import('./webllm-engine')).checkWebGpu(),
    webllmModels: async () => (await import('./webllm-engine')).listWebLlmModels(),
    saveModelFile: ({ file }, ctx) => saveModelFile(file, (p) => ctx.progress(p)),
    modelFiles: () => listModelFiles(),
    deleteModelFile: async ({ name }) => ({ deleted: await deleteModelFile(name) }),
    connect: ({ port }) => (expose<LlmApi>(handlers, port), null),
  };
  return handlers;
}
