/**
 * The llm worker's protocol, declared once. `workers/llm.worker.ts` hosts the in-browser engines
 * (wllama on CPU, WebLLM on WebGPU); the UI talks to it directly (Settings: load and try a model)
 * and the memory and predictors workers reach it through a MessagePort (`connect`), so one tab loads a
 * model once whoever uses it. `WorkerLlmEngine` (src/model-host/worker-engine.ts) turns this API back into
 * the core `LlmEngine` interface, so the build loop cannot tell it from an in-thread engine.
 *
 * Pure types: importable from the UI, workers and Node tests.
 */
import type { ChatMessage, ChatResult, EngineCapabilities, EngineLoadProgress, JsonSchemaSpec } from '../core/llm/engine';

export interface WebGpuStatus {
  available: boolean;
  detail: string;
  fallback?: boolean;
}

export interface WebLlmModelInfo {
  id: string;
  vramMB: number | null;
  lowResource: boolean;
}

export interface LocalModelFile {
  name: string;
  bytes: number;
}

export interface LoadedEngine {
  id: string;
  capabilities: EngineCapabilities;
}

/** Chat options that cross the worker boundary (the signal and token callback become RPC features). */
export interface WireChatOptions {
  temperature?: number;
  maxTokens?: number;
  jsonSchema?: JsonSchemaSpec;
}

export interface LlmApi {
  /** Loads the engine for a spec (once; later calls return at once). Progress: download / compile. */
  load: { req: { spec: string }; res: LoadedEngine; progress: EngineLoadProgress };
  /** One chat completion. Progress: generated text deltas, in order. */
  chat: { req: { spec: string; messages: ChatMessage[]; options: WireChatOptions }; res: ChatResult; progress: string };
  /** Frees the loaded model (all of them when no spec is given). */
  unload: { req: { spec?: string }; res: { unloaded: number }; progress: never };
  /** Specs whose model is in memory now. */
  loaded: { req: null; res: string[]; progress: never };
  webgpu: { req: null; res: WebGpuStatus; progress: never };
  webllmModels: { req: null; res: WebLlmModelInfo[]; progress: never };
  /** Keeps a GGUF file the user picked in the browser's private storage (survives reloads). */
  saveModelFile: { req: { file: File }; res: LocalModelFile; progress: { loadedBytes: number; totalBytes: number } };
  modelFiles: { req: null; res: LocalModelFile[]; progress: never };
  deleteModelFile: { req: { name: string }; res: { deleted: boolean }; progress: never };
  /** Serves this same API on `port` too (for another worker). */
  connect: { req: { port: MessagePort }; res: null; progress: never };
}
