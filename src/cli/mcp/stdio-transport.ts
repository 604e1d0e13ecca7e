/**
 * MCP over stdio (newline-delimited JSON-RPC), replacing the SDK's `StdioServerTransport`, which
 * silently drops lines it cannot parse or validate. Every line goes through `checkLine`
 * (jsonrpc-guard.ts): well-formed messages reach the SDK, the rest are answered here.
 * Constraints:
 *  - a line longer than `MAX_LINE_BYTES` is not buffered: it is skipped up to its newline and
 *    answered -32700 (its id cannot be known without reading it);
 *  - outgoing errors are bounded (`boundReply`), so no client input is ever echoed at length;
 *  - writes respect stdout back-pressure; a broken stdout closes the transport, never the process;
 *  - when stdin ends, requests already read are still answered before the transport closes (a
 *    client may write its requests and close its end at once).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { clipInput } from '../../core/text/quote';
import { checkLine, errorReply, PARSE_ERROR } from './jsonrpc-guard';

/** Longest accepted line (bytes). Larger than any legitimate request; tool inputs have their own limits. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Longest error message or tool-error text sent back. */
const REPLY_TEXT_MAX = 1000;

/** A text content item of a tool result, or anything else left as it is. */
function clipContent(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || !('text' in item) || typeof item.text !== 'string') return item;
  return { ...item, text: clipInput(item.text, REPLY_TEXT_MAX) };
}

/** Error messages and tool-error texts clipped; error `data` dropped when large. */
export function boundReply(message: JSONRPCMessage): JSONRPCMessage {
  if ('error' in message) {
    const e = message.error;
    const data = e.data !== undefined && JSON.stringify(e.data).length <= 200 ? { data: e.data } : {};
    return { ...message, error: { code: e.code, message: clipInput(String(e.message ?? ''), REPLY_TEXT_MAX), ...data } };
  }
  if ('result' in message && message.result.isError === true && Array.isArray(message.result.content)) {
    return { ...message, result: { ...message.result, content: message.result.content.map(clipContent) } };
  }
  return message;
}

export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Inside a line that is over the limit: drop bytes up to its newline. */
  private skipping = false;
  private closed = false;
  private ending = false;
  /** Requests handed to the SDK and not answered yet (key: typeof id + id; count for repeated ids). */
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer | string) => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (let nl = buf.indexOf(0x0a); nl !== -1; nl = buf.indexOf(0x0a)) {
      this.take(buf.subarray(0, nl));
      this.endLine();
      buf = buf.subarray(nl + 1);
    }
    if (buf.length) this.take(buf);
  };

  private readonly onEnd = () => {
    if (this.buffered || this.skipping) this.endLine();
    this.ending = true;
    this.closeWhenIdle();
  };

  private closeWhenIdle(): void {
    if (this.ending && this.inFlight.size === 0) void this.close();
  }

  private static key(id: unknown): string {
    return `${typeof id}:${String(id)}`;
  }

  private readonly onStreamError = (err: Error) => {
    this.onerror?.(err);
    void this.close();
  };

  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.buffered + part.length > MAX_LINE_BYTES) {
      this.skipping = true;
      this.chunks = [];
      this.buffered = 0;
      return;
    }
    this.chunks.push(part);
    this.buffered += part.length;
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      this.write(errorReply(null, PARSE_ERROR, `Parse error: the message is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB and was not read.`));
      return;
    }
    const line = Buffer.concat(this.chunks, this.buffered).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.buffered = 0;
    const verdict = checkLine(line);
    if ('forward' in verdict) {
      const m = verdict.forward as { id?: unknown; method?: unknown };
      if (m.id !== undefined && typeof m.method === 'string') {
        const k = GuardedStdioTransport.key(m.id);
        this.inFlight.set(k, (this.inFlight.get(k) ?? 0) + 1);
      }
      try {
        this.onmessage?.(verdict.forward);
      } catch (err) {
        this.onerror?.(err as Error);
      }
    } else if ('reply' in verdict) this.write(verdict.reply);
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onStreamError);
    this.stdout.on('error', this.onStreamError);
  }

  private write(message: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    const text = `${JSON.stringify(message)}\n`;
    return new Promise((done) => {
      if (this.stdout.write(text)) done();
      else this.stdout.once('drain', done);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: unknown; method?: unknown };
    const written = this.write(boundReply(message));
    if (m.id !== undefined && m.method === undefined) {
      const k = GuardedStdioTransport.key(m.id);
      const n = (this.inFlight.get(k) ?? 0) - 1;
      if (n > 0) this.inFlight.set(k, n);
      else this.inFlight.delete(k);
      void written.then(() => this.closeWhenIdle());
    }
    return written;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onStreamError);
    this.stdin.pause();
    this.onclose?.();
  }
}
