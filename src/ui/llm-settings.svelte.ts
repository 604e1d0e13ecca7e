/**
 * Settings → Language model: which engine memory builds and LLM predictors use, stored as one spec
 * string (`llmEngine`), plus trying it out (load with progress, a short streamed reply, tokens/s).
 * Loading the page never overwrites what the user has typed meanwhile.
 *
 * Constraints: the form says what is missing before anything is tried (`problem`, shown next to
 * the disabled buttons), so no half-filled spec ever reaches the parser; an error belongs to the
 * engine it came from and is cleared when the user switches engine; endpoint errors are explained
 * in plain language with what to do (src/core/llm/explain.ts).
 */
import { CancelledError } from '../core/errors';
import {
  blockedPort,
  blockedPortText,
  describeEngineSpec,
  explainLlmError,
  findModel,
  formatEngineSpec,
  LlmConnectionError,
  listModels,
  modelMissingText,
  modelsUrl,
  NO_ENGINE,
  parseEngineSpec,
  readEngineSpec,
  type EngineLoadProgress,
  type EngineSpec,
} from '../core/llm';
import { quote } from '../core/text/quote';
import type { SettingsStore } from './storage';
import type { LocalModelFile, WebGpuStatus, WebLlmModelInfo } from '../model-host/llm-api';
import { engineInPage } from './llm-client';
import type { Send } from './send';

export type EngineKind = EngineSpec['kind'];

export interface TrialResult {
  text: string;
  promptTokens: number;
  completionTokens: number;
  estimated: boolean;
  ms: number;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class LlmSettingsState {
  kind = $state<EngineKind>('none');
  baseUrl = $state('http://localhost:11434/v1');
  model = $state('');
  apiKey = $state('');
  wllamaSource = $state<'url' | 'file'>('url');
  ggufUrl = $state('');
  ggufFile = $state('');
  bias = $state('');
  contextSize = $state<number | null>(null);
  webllmModel = $state('');

  saved = $state('none');
  #error = $state.raw<{ kind: EngineKind; text: string } | null>(null);
  /** The endpoint's models after "Test connection" (for the base URL it was run on). */
  connection = $state.raw<{ baseUrl: string; models: string[] } | null>(null);
  testing = $state(false);
  files = $state.raw<LocalModelFile[]>([]);
  storing = $state<{ name: string; loaded: number; total: number } | null>(null);
  webgpu = $state.raw<WebGpuStatus | null>(null);
  webllmModels = $state.raw<WebLlmModelInfo[]>([]);

  loadProgress = $state.raw<EngineLoadProgress | null>(null);
  trialText = $state('');
  trial = $state.raw<TrialResult | null>(null);
  trialError = $state<string | null>(null);
  #trialAbort = $state.raw<AbortController | null>(null);
  #touched = false;
  /** The settings (testKey) that last passed a test: "Test connection" listed the model, or "Load and try" answered. */
  #connectionKey = $state<string | null>(null);
  #trialPassed = $state<string | null>(null);

  constructor(
    private readonly settings: SettingsStore,
    private readonly send: Send,
  ) {}

  /** The current engine's error (an error of another engine is not shown). */
  get error(): string | null {
    return this.#error?.kind === this.kind ? this.#error.text : null;
  }

  set error(text: string | null) {
    this.#error = text === null ? null : { kind: this.kind, text };
  }

  /**
   * What the form still needs before the model can be used or tried, in words; null when complete.
   * Checked in the order the fields appear.
   */
  get problem(): string | null {
    switch (this.kind) {
      case 'none':
        return null;
      case 'openai': {
        const url = this.baseUrl.trim();
        if (url === '') return 'Enter the address of the server, e.g. http://localhost:11434/v1.';
        if (!/^https?:\/\/[^\s#]+$/.test(url)) return `The address ${quote(url, 80)} is not a web address: it starts with http:// or https://.`;
        if (this.model.trim() === '') return 'Enter a model name, or press "Test connection" to pick one of the server\'s models.';
        break;
      }
      case 'wllama':
        if (this.wllamaSource === 'url' && this.ggufUrl.trim() === '') return 'Enter the URL of a .gguf model file (https://… or /models/name.gguf).';
        if (this.wllamaSource === 'file' && this.ggufFile === '') return 'Pick a .gguf model file on this computer.';
        break;
      case 'webllm':
        if (this.webgpu && !this.webgpu.available) return this.webgpu.detail;
        if (this.webllmModel === '') return 'Choose a WebLLM model.';
        break;
    }
    try {
      this.spec();
      return null;
    } catch (err) {
      return message(err);
    }
  }

  /**
   * The form's settings as a test sees them: the engine spec and the key. A test passes for these
   * exact settings; editing any field makes it a different key, so "Use this model" waits for a new test.
   */
  #testKey(): string | null {
    try {
      return `${this.spec()}\n${this.kind === 'openai' ? this.apiKey.trim() : ''}`;
    } catch {
      return null;
    }
  }

  /** A test of exactly these settings passed (nothing to test for "none"). */
  get tested(): boolean {
    if (this.kind === 'none') return true;
    const key = this.#testKey();
    if (key === null) return false;
    if (this.#trialPassed === key) return true;
    // "Test connection" passes for the server and key it ran on, with a model the server lists.
    return (
      this.kind === 'openai' &&
      this.connection !== null &&
      this.#connectionKey === `${this.baseUrl.trim()}\n${this.apiKey.trim()}` &&
      findModel(this.connection.models, this.model) !== null
    );
  }

  /** Why "Use this model" waits, while no test of these settings has passed; null once one has. */
  get untested(): string | null {
    if (this.tested) return null;
    return this.kind === 'openai'
      ? 'Press "Test connection" (or "Load and try") first: the model can be used once a test of these settings passes.'
      : 'Press "Load and try" first: the model can be used once it loads and answers.';
  }

  /** The user chose another engine: what was shown for the previous one goes. */
  switched(): void {
    this.touch();
    this.clearTrial();
    this.#error = null;
  }

  pickModel(id: string): void {
    this.touch();
    this.model = id;
    if (this.error && this.connection) this.error = null;
  }

  /** `GET {base}/v1/models`: lists the server's models to pick from, or explains what is wrong. */
  async testConnection(): Promise<void> {
    const baseUrl = this.baseUrl.trim();
    const apiKey = this.apiKey.trim();
    this.error = null;
    this.connection = null;
    // A new test replaces every earlier result: a failed one leaves nothing that passed.
    this.#connectionKey = this.#trialPassed = null;
    // The browser would refuse the request: say so instead of "is the server running?".
    const port = blockedPort(baseUrl);
    if (port !== null) return void (this.error = blockedPortText(baseUrl, port));
    this.testing = true;
    try {
      const models = await listModels(baseUrl, apiKey ? { apiKey } : {});
      this.connection = { baseUrl, models };
      this.#connectionKey = `${baseUrl}\n${apiKey}`;
      const typed = this.model.trim();
      if (typed && !findModel(models, typed)) this.error = modelMissingText({ baseUrl, model: typed, models });
      else if (!typed && models.length === 1) this.model = models[0]!;
    } catch (err) {
      if (this.kind === 'openai') this.error = await this.#explain(err, baseUrl);
    } finally {
      this.testing = false;
    }
  }

  /** Plain-language text of an endpoint error; a failed request is probed to tell CORS from "not running". */
  async #explain(err: unknown, baseUrl: string): Promise<string> {
    let reachable = false;
    if (err instanceof LlmConnectionError) {
      try {
        // An opaque answer to a no-cors request means something listens there but refuses this page.
        await fetch(modelsUrl(baseUrl), { mode: 'no-cors', signal: AbortSignal.timeout(5000) });
        reachable = true;
      } catch {
        reachable = false;
      }
    }
    const models = this.connection?.baseUrl === baseUrl ? this.connection.models : undefined;
    return explainLlmError(err, { baseUrl, model: this.model.trim(), origin: globalThis.location?.origin, reachable, ...(models ? { models } : {}) }).text;
  }

  get trying(): boolean {
    return this.#trialAbort !== null;
  }

  /** The engine the form shows now, parsed; throws EngineSpecError with a precise message if invalid. */
  engineSpec(): EngineSpec {
    switch (this.kind) {
      case 'none':
        return NO_ENGINE;
      case 'openai':
        return parseEngineSpec(`openai:${this.baseUrl.trim()}#${this.model.trim()}`);
      case 'webllm':
        return parseEngineSpec(`webllm:${this.webllmModel}`);
      case 'wllama': {
        const source = this.wllamaSource === 'file' ? `file:${this.ggufFile}` : this.ggufUrl.trim();
        const opts = [this.bias.trim() ? `;bias=${this.bias.trim()}` : '', this.contextSize ? `;ctx=${this.contextSize}` : ''].join('');
        return parseEngineSpec(`wllama:${source}${opts}`);
      }
    }
  }

  /** The canonical string of what the form shows now (what Settings stores); throws as `engineSpec`. */
  spec(): string {
    return formatEngineSpec(this.engineSpec());
  }

  get label(): string {
    try {
      return describeEngineSpec(readEngineSpec(this.saved));
    } catch {
      return this.saved;
    }
  }

  /** Marks that the user edited the form, so late-arriving stored values do not overwrite it. */
  touch(): void {
    this.#touched = true;
  }

  async load(): Promise<void> {
    const [spec, endpoint, key] = await Promise.all([this.settings.get('llmEngine'), this.settings.get('llmEndpoint'), this.settings.get('llmApiKey')]);
    this.saved = spec;
    if (this.#touched) return;
    if (endpoint) ({ baseUrl: this.baseUrl, model: this.model } = endpoint);
    this.apiKey = key;
    try {
      this.#adopt(readEngineSpec(spec));
    } catch (err) {
      this.error = `The stored language model setting is invalid (${message(err)}); choose again.`;
    }
    if (this.kind === 'wllama') await this.refreshFiles();
    if (this.kind === 'webllm') await this.checkWebGpu();
  }

  #adopt(spec: EngineSpec): void {
    this.kind = spec.kind;
    if (spec.kind === 'openai') ({ baseUrl: this.baseUrl, model: this.model } = spec);
    if (spec.kind === 'webllm') this.webllmModel = spec.model;
    if (spec.kind === 'wllama') {
      this.wllamaSource = spec.source.startsWith('file:') ? 'file' : 'url';
      if (this.wllamaSource === 'file') this.ggufFile = spec.source.slice(5);
      else this.ggufUrl = spec.source;
      this.bias = spec.bias ? `${spec.bias.from}-${spec.bias.to}:${spec.bias.value}` : '';
      this.contextSize = spec.contextSize ?? null;
    }
  }

  async save(): Promise<boolean> {
    this.error = null;
    const problem = this.problem ?? this.untested;
    if (problem) {
      this.error = problem;
      return false;
    }
    const spec = this.spec();
    if (this.kind === 'openai') {
      await this.settings.set('llmEndpoint', { baseUrl: this.baseUrl.trim(), model: this.model.trim() });
      await this.settings.set('llmApiKey', this.apiKey.trim());
    }
    await this.settings.set('llmEngine', spec);
    this.saved = spec;
    return true;
  }

  async refreshFiles(): Promise<void> {
    try {
      this.files = await this.send('modelFiles', null);
    } catch (err) {
      this.error = message(err);
    }
  }

  async storeFile(file: File): Promise<void> {
    this.error = null;
    this.storing = { name: file.name, loaded: 0, total: file.size };
    try {
      const stored = await this.send(
        'saveModelFile',
        { file },
        { onProgress: (p) => (this.storing = { name: file.name, loaded: p.loadedBytes, total: p.totalBytes }) },
      );
      await this.refreshFiles();
      this.ggufFile = stored.name;
      this.wllamaSource = 'file';
    } catch (err) {
      this.error = message(err);
    } finally {
      this.storing = null;
    }
  }

  async deleteFile(name: string): Promise<void> {
    await this.send('deleteModelFile', { name });
    if (this.ggufFile === name) this.ggufFile = '';
    await this.refreshFiles();
  }

  async checkWebGpu(): Promise<void> {
    this.webgpu = await this.send('webgpu', null);
    if (!this.webgpu.available) return;
    this.webllmModels = await this.send('webllmModels', null);
    if (!this.webllmModel) this.webllmModel = this.webllmModels.find((m) => m.lowResource)?.id ?? this.webllmModels[0]?.id ?? '';
  }

  /** Loads the chosen model (with progress) and streams a short reply. */
  async tryIt(prompt: string): Promise<void> {
    const problem = this.problem;
    if (problem) {
      this.trialError = problem;
      return;
    }
    const spec = this.engineSpec();
    const kind = this.kind;
    const key = this.#testKey();
    this.#connectionKey = this.#trialPassed = null;
    const port = spec.kind === 'openai' ? blockedPort(spec.baseUrl) : null;
    if (port !== null) return void (this.trialError = blockedPortText(this.baseUrl, port));
    const abort = new AbortController();
    this.#trialAbort = abort;
    this.trial = null;
    this.trialError = null;
    this.trialText = '';
    this.loadProgress = null;
    try {
      const engine = await engineInPage(spec, this.apiKey.trim() || undefined);
      await engine.load?.({ signal: abort.signal, onProgress: (p) => (this.loadProgress = p) });
      const started = performance.now();
      const res = await engine.chat([{ role: 'user', content: prompt }], { maxTokens: 48, signal: abort.signal, onToken: (t) => (this.trialText += t) });
      this.trial = {
        text: res.text,
        promptTokens: res.promptTokens,
        completionTokens: res.completionTokens,
        estimated: res.estimated === true,
        ms: performance.now() - started,
      };
      this.#trialPassed = key;
    } catch (err) {
      const text = err instanceof CancelledError ? 'Stopped.' : kind === 'openai' ? await this.#explain(err, this.baseUrl.trim()) : message(err);
      // A late failure of an engine the user has switched away from is not this engine's error.
      if (this.kind === kind) this.trialError = text;
    } finally {
      this.#trialAbort = null;
    }
  }

  clearTrial(): void {
    this.stopTrial();
    this.trial = null;
    this.trialText = '';
    this.trialError = null;
    this.loadProgress = null;
  }

  stopTrial(): void {
    this.#trialAbort?.abort();
  }

  async unload(): Promise<number> {
    return (await this.send('unload', {})).unloaded;
  }
}
