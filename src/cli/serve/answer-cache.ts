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

export class AnswerCache {
  /** Keyed by route and body text; a Map keeps insertion order, so the least recently used key is the first. */
  private readonly map = new Map<string, CachedAnswer>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    readonly maxEntries = DEFAULT_MAX_ANSWERS,
    readonly maxBytes = DEFAULT_MAX_ANSWER_BYTES,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** The answer kept for `body` on `route`, or undefined. */
  get(route: string, body: string): CachedAnswer | undefined {
    if (body.length > MAX_KEY_CHARS) return undefined;
    const key = `${route} ${body}`;
    const v = this.map.get(key);
    if (v === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  set(route: string, body: string, answer: CachedAnswer): void {
    if (body.length > MAX_KEY_CHARS) return;
    const key = `${route} ${body}`;
    const size = weight(key, answer);
    if (size > this.maxBytes || this.maxEntries <= 0) return;
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.bytes -= weight(key, old);
    }
    this.map.set(key, answer);
    this.bytes += size;
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes) {
      const first = this.map.keys().next().value as string;
      this.bytes -= weight(first, this.map.get(first)!);
      this.map.delete(first);
    }
  }
}

/** Bytes held for one answer: its key and task text (UTF-16) and its JSON bytes. */
const weight = (key: string, a: CachedAnswer) => (key.length + (a.task?.length ?? 0)) * 2 + a.bytes.length;
