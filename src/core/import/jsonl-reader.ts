/**
 * JSON Lines: one object per physical line. A bad line is a row error, never fatal, because one
 * corrupt line in a large export should not cost the user the rest of the file.
 */
import { ParseError } from '../errors';
import { clipRaw } from './bounded';
import { parseJsonRecord } from './json-value';
import type { ReadItem } from './types';

export { describeJsonType } from './json-value';

export class JsonlReader {
  private pending = '';
  private line = 0;
  private sawContent = false;

  constructor(private readonly fileName: string) {}

  push(chunk: string): ReadItem[] {
    this.pending += chunk;
    // Only look for line ends when this chunk has one: keeps long lines fed in small chunks linear.
    if (!chunk.includes('\n')) return [];
    const items: ReadItem[] = [];
    let start = 0;
    for (;;) {
      const nl = this.pending.indexOf('\n', start);
      if (nl === -1) break;
      this.handle(this.pending.slice(start, nl), items);
      start = nl + 1;
    }
    this.pending = this.pending.slice(start);
    return items;
  }

  end(): ReadItem[] {
    const items: ReadItem[] = [];
    if (this.pending.length > 0) this.handle(this.pending, items);
    this.pending = '';
    if (!this.sawContent) throw new ParseError('The file is empty: there are no JSON lines in it.', this.fileName);
    return items;
  }

  private handle(text: string, items: ReadItem[]): void {
    this.line += 1;
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim() === '') return;
    this.sawContent = true;
    const row = this.line;
    // Depth, repeated keys and syntax are checked in json-value.ts; the raw line kept is bounded.
    const parsed = parseJsonRecord(line, { line: row, column: 1 });
    if (parsed.value) {
      items.push({ record: { row, data: parsed.value } });
      return;
    }
    const reason = parsed.found ? `expected a JSON object, found ${parsed.found.kind}` : parsed.error;
    items.push({ error: { file: this.fileName, row, column: '', reason: `line ${row}: ${reason}`, raw: { line: clipRaw(line) } } });
  }
}
