/**
 * Incremental scanner for one JSON document whose top level is an array or an object. It finds the
 * boundaries of each top-level member (tracking depth, strings and escapes) and hands each member to
 * JSON.parse on its own, so a large file never has to be one string and one bad member is one error.
 */
import { ParseError } from '../errors';
import { quote } from '../text/quote';

export interface JsonMember {
  /** 1-based position of the member in the top-level container. */
  index: number;
  /** Member name when the top level is an object. */
  key?: string;
  /** Raw JSON text of the member's value. */
  text: string;
  /** Line and column (1-based) where the value starts in the file. */
  line: number;
  column: number;
}

const enum S {
  Start,
  Item,
  Key,
  Colon,
  ValueStart,
  Value,
  After,
  Done,
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const SLASH = 0x2f;
/** `//` and `/* *\/` are the usual non-JSON additions (JSONC, JSON5); name them rather than the character. */
const COMMENT = "Comments are not allowed in JSON: found '/', the start of a // or /* */ comment";
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class JsonScanner {
  private state = S.Start;
  private container: 'array' | 'object' = 'array';
  private afterComma = false;
  private count = 0;
  private key: string | undefined;
  // Current token (key or value) being accumulated across chunks.
  private parts: string[] = [];
  private kind: 'container' | 'string' | 'primitive' = 'primitive';
  private depth = 0;
  private inString = false;
  private escaped = false;
  // Position tracking for error messages.
  private offset = 0;
  private line = 1;
  private column = 1;
  private valueLine = 1;
  private valueColumn = 1;
  /** Where the current token starts in the chunk being pushed (0 when it began in an earlier chunk), -1 outside a token. */
  private tokenStart = -1;

  /**
   * `embedded`: the array is a value inside a larger document (json-container.ts): scanning stops at
   * its closing bracket and whatever follows is not this scanner's business; `origin` is where the
   * array starts in the file, so line and column in messages are the file's.
   */
  constructor(
    private readonly fileName: string,
    private readonly options: { embedded?: boolean; origin?: { line: number; column: number; offset: number } } = {},
  ) {
    if (options.origin) ({ line: this.line, column: this.column, offset: this.offset } = options.origin);
  }

  /** True once an embedded array is closed. */
  get done(): boolean {
    return this.state === S.Done;
  }

  push(chunk: string): JsonMember[] {
    const out: JsonMember[] = [];
    if (this.options.embedded && this.state === S.Done) return out;
    this.tokenStart = this.inToken() ? 0 : -1;
    let i = 0;
    while (i < chunk.length) {
      const c = chunk.charCodeAt(i);
      // Hot path: most characters of a file lie inside a member's value, so that state is tested
      // first and inline; the structural states (a few characters per member) go through `step`.
      if (this.state === S.Value) {
        const end = this.scanValue(c);
        if (end !== 'continue') {
          out.push(this.takeMember(chunk, end === 'before' ? i : i + 1));
          // A primitive ends before its terminator, which the After state must see again.
          if (end === 'before') continue;
        }
      } else if (!this.step(c, chunk, i)) return out;
      this.track(c);
      i += 1;
    }
    if (this.tokenStart !== -1) this.parts.push(chunk.slice(this.tokenStart));
    return out;
  }

  /** One character outside a value; false when an embedded array is closed and scanning stops. */
  private step(c: number, chunk: string, i: number): boolean {
    switch (this.state) {
      case S.Start:
        this.onStart(c, chunk, i);
        break;
      case S.Item:
        this.onItem(c, chunk, i);
        break;
      case S.Key:
        if (this.scanString(c)) {
          this.key = JSON.parse(this.takeToken(chunk, this.tokenStart, i + 1)) as string;
          this.tokenStart = -1;
          this.state = S.Colon;
        }
        break;
      case S.Colon:
        if (WS.has(c)) break;
        if (c === SLASH) this.fail(COMMENT);
        if (c !== 0x3a) this.fail(`Expected ':' after the member name ${quote(this.key ?? '')}`);
        this.state = S.ValueStart;
        break;
      case S.ValueStart:
        if (WS.has(c)) break;
        if (c === SLASH) this.fail(COMMENT);
        this.tokenStart = i;
        this.startValue(c);
        break;
      case S.After:
        this.onAfter(c, chunk, i);
        break;
      case S.Done:
        if (this.options.embedded) return false;
        if (c === SLASH) this.fail(COMMENT);
        if (!WS.has(c)) this.fail(`Unexpected data after the end of the top-level ${this.container}`);
        break;
    }
    return true;
  }

  private onStart(c: number, chunk: string, i: number): void {
    if (WS.has(c)) return;
    if (c === 0x5b) this.container = 'array';
    else if (c === 0x7b) this.container = 'object';
    else if (c === SLASH) this.fail(COMMENT);
    else this.fail(`A JSON file must hold an array or an object at the top level; this one starts with ${describeStart(chunk[i] ?? '')}`);
    this.state = S.Item;
  }

  /** Where a member (or the closing bracket) may start: at the beginning or right after a comma. */
  private onItem(c: number, chunk: string, i: number): void {
    if (WS.has(c)) return;
    if (c === this.closer()) {
      if (this.afterComma) this.fail('Trailing comma before the closing bracket');
      this.state = S.Done;
    } else if (c === 0x2c) {
      this.fail(this.afterComma ? 'Two commas in a row' : "Unexpected ',' before the first member");
    } else if (c === SLASH) {
      this.fail(COMMENT);
    } else if (this.container === 'object') {
      if (c !== QUOTE) this.fail(`Expected a member name in double quotes but found ${shown(chunk, i)}`);
      this.startToken('string');
      this.tokenStart = i;
      this.state = S.Key;
    } else {
      this.tokenStart = i;
      this.startValue(c);
    }
  }

  private onAfter(c: number, chunk: string, i: number): void {
    if (WS.has(c)) return;
    if (c === 0x2c) {
      // Item is entered only at the start (no comma yet) or right after a comma.
      this.afterComma = true;
      this.state = S.Item;
    } else if (c === this.closer()) this.state = S.Done;
    else if (c === SLASH) this.fail(COMMENT);
    else this.fail(`Expected ',' or '${this.container === 'array' ? ']' : '}'}' after member ${this.count} but found ${shown(chunk, i)}`);
  }

  /** The closing bracket's character code of the top-level container. */
  private closer(): number {
    return this.container === 'array' ? 0x5d : 0x7d;
  }

  /** The member whose value ends at `stop` (exclusive). */
  private takeMember(chunk: string, stop: number): JsonMember {
    this.count += 1;
    const member: JsonMember = { index: this.count, text: this.takeToken(chunk, this.tokenStart, stop), line: this.valueLine, column: this.valueColumn };
    if (this.container === 'object') member.key = this.key;
    this.tokenStart = -1;
    this.state = S.After;
    return member;
  }

  /** Checks the document was complete; a primitive member can only end here if the file is truncated anyway. */
  end(): void {
    if (this.state === S.Done) return;
    if (this.state === S.Start) throw new ParseError('The file is empty: no JSON value found.', this.fileName);
    const bracket = this.container === 'array' ? ']' : '}';
    const where = this.inToken() ? `inside member ${this.count + 1}` : `after member ${this.count} without the closing '${bracket}'`;
    throw new ParseError(
      `Truncated JSON: the file ends ${where} (line ${this.line}, column ${this.column}, character ${this.offset}); the top-level ${this.container} ` +
        `is never closed.`,
      this.fileName,
      this.count + 1,
    );
  }

  private inToken(): boolean {
    return this.state === S.Key || this.state === S.Value;
  }

  private startToken(kind: 'container' | 'string' | 'primitive'): void {
    this.parts = [];
    this.kind = kind;
    this.depth = 0;
    this.inString = kind === 'string';
    this.escaped = false;
  }

  private startValue(c: number): void {
    this.valueLine = this.line;
    this.valueColumn = this.column;
    if (c === 0x7b || c === 0x5b) {
      this.startToken('container');
      this.depth = 1;
    } else if (c === QUOTE) this.startToken('string');
    else this.startToken('primitive');
    this.state = S.Value;
    // The opening character itself is consumed by this call; scanning resumes with the next one.
  }

  private takeToken(chunk: string, start: number, stop: number): string {
    this.parts.push(chunk.slice(Math.max(start, 0), stop));
    const text = this.parts.join('');
    this.parts = [];
    return text;
  }

  /** Inside a string token: true when `c` is its closing quote. */
  private scanString(c: number): boolean {
    if (this.escaped) this.escaped = false;
    else if (c === BACKSLASH) this.escaped = true;
    else if (c === QUOTE) {
      if (!this.inString) return false;
      this.inString = false;
      return true;
    }
    return false;
  }

  private scanValue(c: number): 'continue' | 'after' | 'before' {
    if (this.kind === 'string') return this.scanString(c) ? 'after' : 'continue';
    if (this.kind === 'primitive') {
      if (WS.has(c) || c === 0x2c || c === 0x5d || c === 0x7d) return 'before';
      return 'continue';
    }
    if (this.inString) {
      this.scanString(c);
      return 'continue';
    }
    if (c === QUOTE) this.inString = true;
    else if (c === 0x7b || c === 0x5b) this.depth += 1;
    else if (c === 0x7d || c === 0x5d) {
      this.depth -= 1;
      if (this.depth === 0) return 'after';
    }
    return 'continue';
  }

  private track(c: number): void {
    this.offset += 1;
    if (c === 0x0a) {
      this.line += 1;
      this.column = 1;
    } else this.column += 1;
  }

  private fail(message: string): never {
    throw new ParseError(`${message} (line ${this.line}, column ${this.column}).`, this.fileName, this.count + 1);
  }
}

function describeStart(ch: string): string {
  if (ch === '"') return 'a string';
  if (ch === 't' || ch === 'f') return 'a boolean';
  if (ch === 'n') return 'null';
  if (/[-0-9]/.test(ch)) return 'a number';
  return quote(ch);
}

/** The character at `i` for a message (one code point, control characters escaped). */
function shown(chunk: string, i: number): string {
  return quote(String.fromCodePoint(chunk.codePointAt(i) ?? 0));
}
