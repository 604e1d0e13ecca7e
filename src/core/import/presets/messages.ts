/**
 * Prompts and outputs of evaluation logs as text. Logs keep them as a string, as a list of chat
 * messages (`{role, content}`), or with content as a list of parts (`{type: 'text', text}`, images
 * and tool calls beside it); experiences hold text, so parts that are not text are named, not kept.
 */
import { own } from '../../data-keys';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Content of one message: a string, or the text of its parts (`[image]` for a part that is not text). */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.map((part) => {
    if (typeof part === 'string') return part;
    if (!isRecord(part)) return '';
    const text = own(part, 'text');
    if (typeof text === 'string') return text;
    const type = own(part, 'type');
    return typeof type === 'string' ? `[${type}]` : '';
  });
  return parts.filter((p) => p !== '').join('\n');
}

/**
 * A prompt as text: a string as it is; chat messages as `role: content` lines, except a lone user
 * message, which is its content. Undefined when the value is neither.
 */
export function messagesText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return undefined;
  const messages = value.filter(isRecord);
  if (messages.length === 0) return undefined;
  if (messages.length === 1 && own(messages[0], 'role') === 'user') return contentText(own(messages[0], 'content'));
  return messages
    .map((m) => {
      const role = own(m, 'role');
      return `${typeof role === 'string' ? role : 'message'}: ${contentText(own(m, 'content')) ?? ''}`;
    })
    .join('\n');
}

/** A finite number at a value, or undefined. */
export function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export { isRecord };
