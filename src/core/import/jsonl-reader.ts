/**
 * JSON Lines: one object per physical line. A bad line is a row error, never fatal, because one
 * corrupt line in a large export should not cost the user the rest of the file.
 */
import { ParseError } from '../errors';
import type { ReadItem } from './types';

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

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
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      items.push({ error: { file: this.fileName, row, column: '', reason: `line ${row}: invalid JSON: ${detail}`, raw: { line: line.slice(0, 2000) } } });
      return;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      items.push({
        error: { file: this.fileName, row, column: '', reason: `line ${row}: expected a JSON object, found ${describeJsonType(value)}`, raw: { line: line.slice(0, 2000) } },
      });
      return;
    }
    items.push({ record: { row, data: value as Record<string, unknown> } });
  }
}
