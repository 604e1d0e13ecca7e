/**
 * One model request whose reply must parse: ask, and if the reply is unusable ask ONCE more with
 * the reason (the bad reply is echoed clipped, so the retry prompt stays bounded). Transport
 * errors (connection, HTTP, cancellation) are not caught: the build step fails and can be retried.
 */
import type { ChatMessage, JsonSchemaSpec, LlmEngine } from '../llm/engine';
import { clip, PROMPT_LIMITS, repairMessage } from '../prompts/shared';

export interface Usage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

export const emptyUsage = (): Usage => ({ calls: 0, promptTokens: 0, completionTokens: 0 });

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export interface AskResult<T> {
  result: Parsed<T>;
  /** Prompt tokens of the first request (the size that must not grow with the memory). */
  firstPromptTokens: number;
  /** Replies that could not be used, with the reason. */
  rejected: { reply: string; error: string }[];
}

export async function askParsed<T>(
  engine: LlmEngine,
  messages: readonly ChatMessage[],
  parse: (text: string) => Parsed<T>,
  opts: { jsonSchema?: JsonSchemaSpec; maxTokens: number; signal?: AbortSignal; usage: Usage; retries?: number },
): Promise<AskResult<T>> {
  const rejected: { reply: string; error: string }[] = [];
  let convo = [...messages];
  let firstPromptTokens = 0;
  const attempts = 1 + (opts.retries ?? 1);
  for (let attempt = 0; attempt < attempts; attempt++) {
    const reply = await engine.chat(convo, {
      temperature: 0,
      maxTokens: opts.maxTokens,
      ...(opts.jsonSchema ? { jsonSchema: opts.jsonSchema } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    opts.usage.calls++;
    opts.usage.promptTokens += reply.promptTokens;
    opts.usage.completionTokens += reply.completionTokens;
    if (attempt === 0) firstPromptTokens = reply.promptTokens;
    const parsed = parse(reply.text);
    if (parsed.ok) return { result: parsed, firstPromptTokens, rejected };
    rejected.push({ reply: reply.text, error: parsed.error });
    // The retry is built from the ORIGINAL messages, so repeated failures never grow the prompt.
    convo = [...messages, { role: 'assistant', content: clip(reply.text, PROMPT_LIMITS.badReply) }, { role: 'user', content: repairMessage(parsed.error) }];
  }
  return { result: { ok: false, error: rejected[rejected.length - 1]!.error }, firstPromptTokens, rejected };
}
