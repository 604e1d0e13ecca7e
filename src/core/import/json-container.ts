/**
 * Records inside one JSON document, at a key path: promptfoo's `results.results[]`, Inspect's
 * `samples[]`. Such files are one object whose records sit in an array a few levels down, next to
 * summaries, configs and stats; reading the whole object as one value would hold the file in
 * memory. This scanner skips, character by character, everything outside the array (tracking
 * strings and brackets, keeping only the key names on the way) and hands the array to a
 * JsonScanner, which streams its elements one by one. What follows the array is not read as records
 * and not checked: the records are what is imported.
 */
import { ParseError } from '../errors';
import { quote } from '../text/quote';
import { JsonScanner, type JsonMember } from './json-scanner';

/** Longest key kept while seeking (a longer one cannot be on a preset's path). */
const KEY_MAX = 256;
/**
 * Text before the array kept for `document` (Inspect: eval spec, plan, results; promptfoo: its
 * config). Beyond this the summaries are not kept: `document` is then undefined.
 */
const PREFIX_MAX = 4 * 1024 * 1024;
/** Top-level member names kept for the "no array at …" message. */
const TOP_KEYS_MAX = 20;

interface Frame {
  kind: 'object' | 'array';
  key: string | undefined;
  expect: 'key' | 'colon' | 'value' | 'comma';
}

export class JsonContainerScanner {
  private readonly stack: Frame[] = [];
  private inString = false;
  private escaped = false;
  private collecting = false;
  private keyText = '';
  private started = false;
  private line = 1;
  private column = 1;
  private offset = 0;
  private inner: JsonScanner | undefined;
  private prefix: string[] | undefined = [];
  private prefixLength = 0;
  private parsedDocument: Record<string, unknown> | undefined;
  private readonly topKeys: string[] = [];

  constructor(
    private readonly fileName: string,
    /** Keys from the top-level object down to the array, e.g. ['results', 'results']. */
    private readonly path: readonly string[],
  ) {}

  get pathText(): string {
    return this.path.join('.');
  }

  /**
   * The document around the records, without them (the array replaced by null), once the array
   * was reached; undefined before, or when the text before the array is over PREFIX_MAX.
   */
  get document(): Record<string, unknown> | undefined {
    return this.parsedDocument;
  }

  private keep(text: string): void {
    if (!this.prefix) return;
    this.prefixLength += text.length;
    if (this.prefixLength > PREFIX_MAX) this.prefix = undefined;
    else this.prefix.push(text);
  }

  /** The text before the array, closed as a document whose records are null. */
  private closeDocument(): void {
    if (!this.prefix) return;
    try {
      const value: unknown = JSON.parse(`${this.prefix.join('')}null${'}'.repeat(this.stack.length)}`);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) this.parsedDocument = value as Record<string, unknown>;
    } catch {
      // The summaries are best effort; the records are what is imported.
    }
    this.prefix = undefined;
  }

  push(chunk: string): JsonMember[] {
    if (this.inner) return this.inner.push(chunk);
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i] as string;
      if (this.seek(ch)) {
        this.keep(chunk.slice(0, i));
        this.closeDocument();
        this.inner = new JsonScanner(this.fileName, { embedded: true, origin: { line: this.line, column: this.column, offset: this.offset } });
        return this.inner.push(chunk.slice(i));
      }
      this.offset += 1;
      if (ch === '\n') {
        this.line += 1;
        this.column = 1;
      } else this.column += 1;
    }
    this.keep(chunk);
    return [];
  }

  end(): void {
    if (this.inner) {
      if (!this.inner.done) this.inner.end();
      return;
    }
    if (!this.started) throw new ParseError('The file is empty: no JSON value found.', this.fileName);
    const holds = this.topKeys.length ? ` Its top level holds: ${this.topKeys.map((k) => quote(k, 60)).join(', ')}.` : '';
    throw new ParseError(
      `The file has no array at ${quote(this.pathText)}, where this format keeps its records, so there is nothing to import.${holds}`,
      this.fileName,
    );
  }

  /** One character outside the target array; true when it opens the target array. */
  private seek(ch: string): boolean {
    const top = this.stack[this.stack.length - 1];
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (ch === '\\') this.escaped = true;
      else if (ch === '"') {
        this.inString = false;
        if (this.collecting && top) {
          top.key = this.keyText.length <= KEY_MAX ? (JSON.parse(`"${this.keyText}"`) as string) : undefined;
          top.expect = 'colon';
          if (this.stack.length === 1 && top.key !== undefined && this.topKeys.length < TOP_KEYS_MAX) this.topKeys.push(top.key);
        } else if (top) top.expect = 'comma';
        this.collecting = false;
        return false;
      }
      if (this.collecting && this.keyText.length <= KEY_MAX) this.keyText += ch;
      return false;
    }
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') return false;
    if (this.started && !top) this.fail(`the top-level object ended without an array at ${quote(this.pathText)}`);
    if (!this.started) {
      this.started = true;
      if (ch !== '{') this.fail(`expected a JSON object at the top level (with its records at ${quote(this.pathText)}), found ${quote(ch)}`);
    }
    if (top?.kind === 'object' && top.expect === 'key') {
      if (ch === '}') return this.close();
      if (ch !== '"') this.fail(`expected a member name in double quotes, found ${quote(ch)}`);
      this.inString = true;
      this.collecting = true;
      this.keyText = '';
      return false;
    }
    if (top?.kind === 'object' && top.expect === 'colon') {
      if (ch !== ':') this.fail(`expected ':' after the member name ${quote(top.key ?? '')}`);
      top.expect = 'value';
      return false;
    }
    if (top && top.expect === 'comma') {
      if (ch === ',') {
        top.expect = top.kind === 'object' ? 'key' : 'value';
        return false;
      }
      if (ch === '}' || ch === ']') return this.close();
      // Inside a primitive (a number, true, null): its characters are skipped.
      if (/[\w.+-]/.test(ch)) return false;
      this.fail(`unexpected ${quote(ch)}`);
    }
    // A value starts (or, in an array, the array ends).
    if (top?.kind === 'array' && ch === ']') return this.close();
    if (this.onPath() && top) {
      if (ch === '[') return true;
      this.fail(`${quote(this.pathText)} must be an array of records, but it starts with ${quote(ch)}`);
    }
    if (ch === '{' || ch === '[') {
      if (top) top.expect = 'comma';
      this.stack.push({ kind: ch === '{' ? 'object' : 'array', key: undefined, expect: ch === '{' ? 'key' : 'value' });
      return false;
    }
    if (top) top.expect = 'comma';
    if (ch === '"') this.inString = true;
    return false;
  }

  /** The value about to start is the one at the path: every open container is an object on it. */
  private onPath(): boolean {
    if (this.stack.length !== this.path.length) return false;
    return this.stack.every((frame, i) => frame.kind === 'object' && frame.key === this.path[i]);
  }

  private close(): boolean {
    this.stack.pop();
    return false;
  }

  private fail(why: string): never {
    throw new ParseError(`${why[0]?.toUpperCase()}${why.slice(1)} (line ${this.line}, column ${this.column}).`, this.fileName);
  }
}
