/**
 * One chat-completions call to an upstream (`openai:URL#MODEL` of the route file) over node:http(s)
 * with keep-alive sockets: the router's hop should cost well under a millisecond. The client's
 * Authorization (our token) is never forwarded; an upstream key comes from TOOLMEM_LLM_API_KEY,
 * as for `--llm`. A failure that another upstream might not have — no connection, a reset, a 5xx
 * or 429, a body that is not JSON — is an UpstreamFailure, which the router may fall back from.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Upstream } from './routes';

export class UpstreamFailure extends Error {
  override name = 'UpstreamFailure';
}

const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 512, noDelay: true }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 512, noDelay: true }),
};
/** Longest upstream JSON answer read (a chat completion is kilobytes). */
export const MAX_UPSTREAM_BYTES = 16 * 1024 * 1024;

const why = (err: NodeJS.ErrnoException) =>
  err.code === 'ECONNREFUSED'
    ? 'connection refused'
    : err.code === 'ECONNRESET'
      ? 'connection reset'
      : err.name === 'AbortError'
        ? 'no answer in time'
        : (err.code ?? 'network error');

/** The upstream's response (status and stream), or UpstreamFailure when no response came. */
/** Each upstream's chat URL, parsed once. */
const urls = new Map<string, URL>();

export function postChat(up: Upstream, body: string, signal: AbortSignal): Promise<IncomingMessage> {
  let url = urls.get(up.baseUrl);
  if (!url) urls.set(up.baseUrl, (url = new URL(`${up.baseUrl}/chat/completions`)));
  const secure = url.protocol === 'https:';
  const key = process.env.TOOLMEM_LLM_API_KEY;
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        signal,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          accept: 'application/json, text/event-stream',
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
      },
      resolve,
    );
    req.on('error', (err) => reject(new UpstreamFailure(why(err))));
    req.end(body);
  });
}

/** Reads a non-streamed answer whole; UpstreamFailure when it breaks, is too large or is not a JSON object. */
export function readUpstreamJson(res: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_UPSTREAM_BYTES) res.destroy(new UpstreamFailure('answer larger than 16 MiB'));
      else chunks.push(c);
    });
    res.on('error', (err) => reject(err instanceof UpstreamFailure ? err : new UpstreamFailure(why(err))));
    res.on('end', () => {
      try {
        const v: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) return resolve(v as Record<string, unknown>);
      } catch {
        /* reported below */
      }
      reject(new UpstreamFailure('the answer is not a JSON object'));
    });
  });
}

/** Drops the rest of an answer that will not be used, keeping the socket reusable. */
export function discard(res: IncomingMessage): void {
  res.on('error', () => {});
  res.resume();
}
