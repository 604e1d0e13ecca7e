/**
 * Answers of the JSON API (`/v1/select`, `/v1/predict`, `/v1/recall`) kept per memory generation
 * (issue #36): an answer is a function of the memory file and the request's body text alone (the
 * handlers are deterministic: the same text gets the same vector, facets and predictions), so a
 * body that comes again — an agent asking the same question, a router or a client retrying — is
 * answered with the bytes made the first time, without parsing, checking, predicting or
 * serialising again. One cache per loaded memory (a reload starts an empty one, so no answer can
 * outlive the file it came from); only 200 answers are kept (errors are made again, cheaply).
 * The server looks an answer up twice (app.ts `api`): by the body text, which needs no parse, then by
 * the parsed body written back compactly, so the same arguments in other bytes (spacing, escapes)
 * share one answer; an argument that differs gives another key.
 * Keys are the whole text (never a hash: two bodies must never share an answer), at most
 * MAX_KEY_CHARS of it; the cache holds at most `maxEntries` answers and `maxBytes` of keys and
 * answers together, the least recently used dropped first.
 */
import { LruCache } from '../mcp/task-cache';

/** An answer as sent: its JSON bytes and headers, and the request's task text (for `--log-prompts`). */
export interface CachedAnswer {
  bytes: Buffer;
  headers: Readonly<Record<string, string | number>>;
  task: string | undefined;
}

/** Bodies longer than this (characters) are answered every time rather than kept. */
export const MAX_KEY_CHARS = 8 * 1024;
export const DEFAULT_MAX_ANSWERS = 4096;
/** Keys and answers in all: a select answer of six tools is about 5 KB. */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The JSON API's kept answers: an LRU (task-cache.ts) bounded by entries and by bytes, keyed by route and text. */
export class AnswerCache {
  private readonly lru: LruCache<string, CachedAnswer>;

  constructor(maxEntries = DEFAULT_MAX_ANSWERS, maxBytes = DEFAULT_MAX_ANSWER_BYTES) {
    this.lru = new LruCache(maxEntries, { maxWeight: maxBytes, weight });
  }

  get size(): number {
    return this.lru.size;
  }

  /** The answer kept for `body` on `route`, or undefined. */
  get(route: string, body: string): CachedAnswer | undefined {
    return body.length > MAX_KEY_CHARS ? undefined : this.lru.get(`${route} ${body}`);
  }

  set(route: string, body: string, answer: CachedAnswer): void {
    if (body.length <= MAX_KEY_CHARS) this.lru.set(`${route} ${body}`, answer);
  }
}

/** Bytes held for one answer: its key and task text (UTF-16) and its JSON bytes. */
const weight = (key: string, a: CachedAnswer) => (key.length + (a.task?.length ?? 0)) * 2 + a.bytes.length;
