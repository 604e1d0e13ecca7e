/**
 * Settings → Language model: which engine memory builds and LLM predictors use, stored as one spec
 * string (`llmEngine`), plus trying it out (load with progress, a short streamed reply, tokens/s).
 * Loading the page never overwrites what the user has typed meanwhile.
 */
import { CancelledError } from '../core/errors';
import { describeEngineSpec, formatEngineSpec, parseEngineSpec, type EngineLoadProgress, type EngineSpec } from '../core/llm';
import { getSetting, setSetting, type ToolMemDB } from '../db';
import type { LocalModelFile, WebGpuStatus, WebLlmModelInfo } from '../services/llm-api';
import { engineInPage } from './llm-client';
import { llmWorker } from './workers';

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
  error = $state<string | null>(null);
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

  constructor(private readonly db: ToolMemDB) {}

  get trying(): boolean {
    return this.#trialAbort !== null;
  }

  /** The spec of what the form shows now; throws EngineSpecError with a precise message if invalid. */
  spec(): string {
    switch (this.kind) {
      case 'none':
        return 'none';
      case 'openai':
        return formatEngineSpec(parseEngineSpec(`openai:${this.baseUrl.trim()}#${this.model.trim()}`));
      case 'webllm':
        return formatEngineSpec(parseEngineSpec(`webllm:${this.webllmModel}`));
      case 'wllama': {
        const source = this.wllamaSource === 'file' ? `file:${this.ggufFile}` : this.ggufUrl.trim();
        const opts = [this.bias.trim() ? `;bias=${this.bias.trim()}` : '', this.contextSize ? `;ctx=${this.contextSize}` : ''].join('');
        return formatEngineSpec(parseEngineSpec(`wllama:${source}${opts}`));
      }
    }
  }

  get label(): string {
    try {
      return describeEngineSpec(parseEngineSpec(this.saved));
    } catch {
      return this.saved;
    }
  }

  /** Marks that the user edited the form, so late-arriving stored values do not overwrite it. */
  touch(): void {
    this.#touched = true;
  }

  async load(): Promise<void> {
    const [spec, endpoint, key] = await Promise.all([getSetting(this.db, 'llmEngine'), getSetting(this.db, 'llmEndpoint'), getSetting(this.db, 'llmApiKey')]);
    this.saved = spec;
    if (this.#touched) return;
    if (endpoint) ({ baseUrl: this.baseUrl, model: this.model } = endpoint);
    this.apiKey = key;
    try {
      this.#adopt(parseEngineSpec(spec));
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
    let spec: string;
    try {
      spec = this.spec();
    } catch (err) {
      this.error = message(err);
      return false;
    }
    if (this.kind === 'openai') {
      await setSetting(this.db, 'llmEndpoint', { baseUrl: this.baseUrl.trim(), model: this.model.trim() });
      await setSetting(this.db, 'llmApiKey', this.apiKey.trim());
    }
    await setSetting(this.db, 'llmEngine', spec);
    this.saved = spec;
    return true;
  }

  async refreshFiles(): Promise<void> {
    try {
      this.files = await llmWorker().call('modelFiles', null);
    } catch (err) {
      this.error = message(err);
    }
  }

  async storeFile(file: File): Promise<void> {
    this.error = null;
    this.storing = { name: file.name, loaded: 0, total: file.size };
    try {
      const stored = await llmWorker().call('saveModelFile', { file }, { onProgress: (p) => (this.storing = { name: file.name, loaded: p.loadedBytes, total: p.totalBytes }) });
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
    await llmWorker().call('deleteModelFile', { name });
    if (this.ggufFile === name) this.ggufFile = '';
    await this.refreshFiles();
  }

  async checkWebGpu(): Promise<void> {
    const worker = llmWorker();
    this.webgpu = await worker.call('webgpu', null);
    if (!this.webgpu.available) return;
    this.webllmModels = await worker.call('webllmModels', null);
    if (!this.webllmModel) this.webllmModel = this.webllmModels.find((m) => m.lowResource)?.id ?? this.webllmModels[0]?.id ?? '';
  }

  /** Loads the chosen model (with progress) and streams a short reply. */
  async tryIt(prompt: string): Promise<void> {
    let spec: string;
    try {
      spec = this.spec();
    } catch (err) {
      this.trialError = message(err);
      return;
    }
    const abort = new AbortController();
    this.#trialAbort = abort;
    this.trial = null;
    this.trialError = null;
    this.trialText = '';
    this.loadProgress = null;
    try {
      const engine = engineInPage(spec, this.apiKey.trim() || undefined);
      await engine.load?.({ signal: abort.signal, onProgress: (p) => (this.loadProgress = p) });
      const started = performance.now();
      const res = await engine.chat([{ role: 'user', content: prompt }], { maxTokens: 48, signal: abort.signal, onToken: (t) => (this.trialText += t) });
      this.trial = { text: res.text, promptTokens: res.promptTokens, completionTokens: res.completionTokens, estimated: res.estimated === true, ms: performance.now() - started };
    } catch (err) {
      this.trialError = err instanceof CancelledError ? 'Stopped.' : message(err);
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
    return (await llmWorker().call('unload', {})).unloaded;
  }
}
