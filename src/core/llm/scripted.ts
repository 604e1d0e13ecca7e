/**
 * Test engine that replays recorded replies in order, and a wrapper that records a real engine's
 * replies in the same format (tests/fixtures/llm/*.json), so a live session can become a fixture.
 * Streaming is simulated by cutting each reply into small deltas.
 */
import { z } from 'zod';
import {
  estimateChatTokens,
  estimateTokens,
  throwIfAborted,
  type ChatMessage,
  type ChatOptions,
  type ChatResult,
  type EngineCapabilities,
  type LlmEngine,
} from './engine';
import { LlmHttpError, ScriptExhaustedError } from './errors';

/** One recorded reply: text, or an HTTP failure to simulate. `expect` must occur in the last user message. */
export const ScriptStepSchema = z.union([
  z.string(),
  z.object({ text: z.string(), expect: z.string().optional() }),
  z.object({ httpError: z.object({ status: z.number().int(), body: z.string().default('') }), expect: z.string().optional() }),
]);
export type ScriptStep = z.infer<typeof ScriptStepSchema>;

export const RecordingSchema = z.object({
  id: z.string().default('scripted'),
  replies: z.array(ScriptStepSchema),
});
export type Recording = z.infer<typeof RecordingSchema>;

/** A reply computed from the request (for large generated tests). */
export type ScriptFunction = (messages: readonly ChatMessage[], call: number) => ScriptStep;

export interface ScriptedCall {
  messages: ChatMessage[];
  options: Omit<ChatOptions, 'signal' | 'onToken'>;
  promptTokens: number;
}

export class ScriptedEngine implements LlmEngine {
  readonly capabilities: EngineCapabilities = { streaming: true, jsonSchema: false };
  readonly calls: ScriptedCall[] = [];
  private next = 0;

  constructor(
    private readonly script: readonly ScriptStep[] | ScriptFunction,
    readonly id = 'scripted',
  ) {}

  static fromRecording(json: unknown): ScriptedEngine {
    const rec = RecordingSchema.parse(json);
    return new ScriptedEngine(rec.replies, rec.id);
  }

  /** Replies not used yet (a test can assert the script was consumed exactly). */
  get remaining(): number {
    return typeof this.script === 'function' ? Infinity : this.script.length - this.next;
  }

  countTokens(text: string): number {
    return estimateTokens(text);
  }

  async chat(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    throwIfAborted(options.signal);
    const call = this.next++;
    const step = typeof this.script === 'function' ? this.script(messages, call) : this.script[call];
    const promptTokens = estimateChatTokens(messages);
    const { signal: _s, onToken: _t, ...rest } = options;
    this.calls.push({ messages: messages.map((m) => ({ ...m })), options: rest, promptTokens });
    if (step === undefined) throw new ScriptExhaustedError(`Scripted engine has no reply for call ${call + 1}`);
    const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    if (typeof step !== 'string' && step.expect !== undefined && !lastUser.includes(step.expect)) {
      throw new ScriptExhaustedError(`Scripted reply ${call + 1} expected the request to contain "${step.expect}"`);
    }
    if (typeof step !== 'string' && 'httpError' in step) {
      throw new LlmHttpError(`Scripted HTTP ${step.httpError.status}`, step.httpError.status, step.httpError.body);
    }
    const text = typeof step === 'string' ? step : step.text;
    if (options.onToken) {
      for (let i = 0; i < text.length; i += 8) {
        throwIfAborted(options.signal);
        options.onToken(text.slice(i, i + 8));
      }
    }
    return { text, promptTokens, completionTokens: estimateTokens(text), estimated: true };
  }
}

/** Wraps an engine and keeps every reply, to save as a ScriptedEngine recording. */
export class RecordingEngine implements LlmEngine {
  readonly replies: ScriptStep[] = [];
  constructor(private readonly inner: LlmEngine) {}
  get id(): string {
    return this.inner.id;
  }
  get capabilities(): EngineCapabilities {
    return this.inner.capabilities;
  }
  countTokens(text: string): number {
    return this.inner.countTokens(text);
  }
  async chat(messages: readonly ChatMessage[], options?: ChatOptions): Promise<ChatResult> {
    const result = await this.inner.chat(messages, options);
    this.replies.push(result.text);
    return result;
  }
  recording(): Recording {
    return { id: this.inner.id, replies: [...this.replies] };
  }
}
