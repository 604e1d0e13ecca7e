/// <reference lib="webworker" />
// Thin host for in-browser language models (wllama on CPU, WebLLM on WebGPU): loading and generation
// run here so the page never freezes. Other workers reach it through a MessagePort (`connect`).
import { expose, workerScopeEndpoint } from '../src/rpc';
import { createLlmHandlers } from '../src/model-host/llm-service';
import type { LlmApi } from '../src/model-host/llm-api';

expose<LlmApi>(createLlmHandlers(), workerScopeEndpoint());
