/**
 * A small Markdown reader for tool answers (LLM outputs are mostly Markdown): paragraphs, headings,
 * fenced code, lists, block quotes, rules and GFM tables, with the inline subset of
 * markdown-inline.ts. It builds a tree of whitelisted node types holding plain text, never HTML:
 * the UI renders the tree as DOM nodes (src/ui/components/Markdown.svelte) and `markdownToHtml`
 * (markdown-html.ts) as escaped HTML, so raw HTML in an answer always shows as the text it is.
 * It follows CommonMark where answers need it, not in every corner (no indented code blocks,
 * no reference links, no HTML blocks).
 */
import { parseInline, type Inline } from './markdown-inline';

export type { Inline } from './markdown-inline';
export type Align = 'left' | 'center' | 'right' | null;

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'code'; lang: string; text: string }
  | { type: 'list'; ordered: boolean; start: number; tight: boolean; items: Block[][] }
  | { type: 'quote'; children: Block[] }
  | { type: 'rule' }
  | { type: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] };

/** Longer sources are not parsed (the caller shows them as plain text): the reader stays fast. */
export const MARKDOWN_MAX_CHARS = 200_000;
/** Lists and quotes nested deeper than this are read as paragraphs. */
export const MAX_BLOCK_DEPTH = 12;
const MAX_COLUMNS = 64;

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^( {0,3})([-+*]|\d{1,9}[.)])(?:([ \t]+)(.*))?$/;
const DELIM_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

const blank = (l: string) => l.trim() === '';

interface ItemStart {
  indent: number;
  marker: string;
  content: number;
  rest: string;
}

function itemStart(line: string): ItemStart | null {
  const m = ITEM.exec(line);
  if (!m) return null;
  const [, ind, marker, spaces = '', rest = ''] = m;
  if (!rest.trim()) return { indent: ind!.length, marker: marker!, content: ind!.length + marker!.length + 1, rest: '' };
  // More than four spaces after the marker: the content starts one space in (CommonMark).
  const gap = spaces.length > 4 ? 1 : spaces.length;
  return { indent: ind!.length, marker: marker!, content: ind!.length + marker!.length + gap, rest: spaces.length > 4 ? spaces.slice(1) + rest : rest };
}

function sameList(a: string, b: string): boolean {
  const ordered = /\d/.test(a);
  if (ordered !== /\d/.test(b)) return false;
  return ordered ? a.slice(-1) === b.slice(-1) : a === b;
}

function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && s[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (s[i] === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += s[i];
  }
  cells.push(cur.trim());
  return cells;
}

function tableAt(lines: string[], i: number): boolean {
  const head = lines[i]!;
  const delim = lines[i + 1];
  if (delim === undefined || !head.includes('|') || !DELIM_ROW.test(delim)) return false;
  const n = splitRow(delim).length;
  return n === splitRow(head).length && n <= MAX_COLUMNS;
}

/** A line that starts a block other than a paragraph (so it ends a paragraph). */
function interrupts(line: string): boolean {
  if (FENCE.test(line) || ATX.test(line) || RULE.test(line) || QUOTE.test(line)) return true;
  const item = itemStart(line);
  // An ordered list interrupts a paragraph only when it starts at 1 ("in 2024. we…" is text).
  return !!item && !!item.rest && (!/\d/.test(item.marker) || /^1[.)]$/.test(item.marker));
}

function parseBlocks(lines: string[], depth: number): Block[] {
  const out: Block[] = [];
  let i = 0;
  // Each branch consumes the lines of one block and returns the index of the next line.
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    const atx = ATX.exec(line);
    // A backtick fence whose info string holds a backtick is not a fence (CommonMark): it is text.
    if (fence && !(fence[2]![0] === '`' && fence[3]!.includes('`'))) i = parseFence(lines, i, fence, out);
    else if (atx) {
      out.push({ type: 'heading', level: atx[1]!.length, children: parseInline(atx[2] ?? '') });
      i++;
    } else if (RULE.test(line)) {
      out.push({ type: 'rule' });
      i++;
    } else if (QUOTE.test(line) && depth < MAX_BLOCK_DEPTH) i = parseQuote(lines, i, depth, out);
    else if (itemStart(line) && depth < MAX_BLOCK_DEPTH) i = parseList(lines, i, depth, out);
    else if (tableAt(lines, i)) i = parseTable(lines, i, out);
    else i = parseParagraph(lines, i, out);
  }
  return out;
}

/** A fenced code block: up to a closing fence of the same character, at least as long (or the end). */
function parseFence(lines: string[], i: number, fence: RegExpExecArray, out: Block[]): number {
  const [, ind, run] = fence;
  const close = new RegExp(`^ {0,3}${run![0] === '`' ? '`' : '~'}{${run!.length},}[ \\t]*$`);
  const body: string[] = [];
  i++;
  while (i < lines.length && !close.test(lines[i]!)) {
    // The fence's own indentation is removed from each line of its body.
    body.push(lines[i]!.replace(new RegExp(`^ {0,${ind!.length}}`), ''));
    i++;
  }
  out.push({ type: 'code', lang: (fence[3]!.trim().split(/\s/)[0] ?? '').slice(0, 40), text: body.join('\n') });
  return i + 1;
}

/** A block quote: its marked lines plus lazy continuation lines of a paragraph inside it. */
function parseQuote(lines: string[], i: number, depth: number, out: Block[]): number {
  const body: string[] = [];
  while (i < lines.length && (QUOTE.test(lines[i]!) || (!blank(lines[i]!) && body.length && !blank(body[body.length - 1]!) && !interrupts(lines[i]!)))) {
    body.push(lines[i]!.replace(QUOTE, ''));
    i++;
  }
  out.push({ type: 'quote', children: parseBlocks(body, depth + 1) });
  return i;
}

/** A pipe table: header, delimiter row (alignments), then rows up to a blank line or a block start. */
function parseTable(lines: string[], i: number, out: Block[]): number {
  const head = splitRow(lines[i]!);
  const align: Align[] = splitRow(lines[i + 1]!).map((c) =>
    c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : c.startsWith(':') ? 'left' : null,
  );
  const rows: Inline[][][] = [];
  i += 2;
  while (i < lines.length && !blank(lines[i]!) && !interrupts(lines[i]!)) {
    const cells = splitRow(lines[i]!);
    // Every row has the header's width: missing cells are empty, extra ones dropped.
    rows.push(head.map((_, k) => parseInline(cells[k] ?? '')));
    i++;
  }
  out.push({ type: 'table', align, head: head.map((c) => parseInline(c)), rows });
  return i;
}

/** A paragraph: up to a blank line, a block start, a table, or a setext underline (which makes it a heading). */
function parseParagraph(lines: string[], i: number, out: Block[]): number {
  const para: string[] = [lines[i]!.trim()];
  i++;
  let level = 0;
  while (i < lines.length && !blank(lines[i]!)) {
    const next = lines[i]!;
    if (/^ {0,3}=+[ \t]*$/.test(next)) {
      level = 1;
      i++;
      break;
    }
    if (/^ {0,3}-+[ \t]*$/.test(next)) {
      level = 2;
      i++;
      break;
    }
    if (interrupts(next) || tableAt(lines, i)) break;
    para.push(next.trim());
    i++;
  }
  const children = parseInline(para.join('\n'));
  out.push(level ? { type: 'heading', level, children } : { type: 'paragraph', children });
  return i;
}

/** Reads the list starting at line `i` into `out`; returns the index after it. */
function parseList(lines: string[], i: number, depth: number, out: Block[]): number {
  const first = itemStart(lines[i]!)!;
  const ordered = /\d/.test(first.marker);
  const items: Block[][] = [];
  let tight = true;
  while (i < lines.length) {
    const item = itemStart(lines[i]!);
    if (!item || item.indent >= first.content || !sameList(first.marker, item.marker) || RULE.test(lines[i]!)) break;
    const body = [item.rest];
    i++;
    let gap = false;
    while (i < lines.length) {
      const l = lines[i]!;
      if (blank(l)) {
        body.push('');
        gap = true;
        i++;
        continue;
      }
      const indent = l.length - l.trimStart().length;
      if (indent >= item.content) {
        body.push(l.slice(item.content));
        gap = false;
        i++;
        continue;
      }
      if (gap || itemStart(l) || interrupts(l)) break;
      body.push(l.trim()); // lazy continuation of the item's paragraph
      i++;
    }
    while (body.length && blank(body[body.length - 1]!)) body.pop();
    const inner = body.findIndex(blank);
    if (inner >= 0 && inner < body.length - 1) tight = false;
    if (gap && i < lines.length && itemStart(lines[i]!)) tight = false;
    items.push(parseBlocks(body, depth + 1));
  }
  out.push({ type: 'list', ordered, start: ordered ? Number.parseInt(first.marker, 10) : 1, tight, items });
  return i;
}

/** The block tree of a Markdown text, or null when it is longer than `MARKDOWN_MAX_CHARS`. */
export function parseMarkdown(source: string): Block[] | null {
  if (source.length > MARKDOWN_MAX_CHARS) return null;
  // Leading tabs count as four spaces; NUL is replaced as CommonMark asks.
  const lines = source
    .replace(/\r\n?/g, '\n')
    .replace(/\0/g, '\uFFFD')
    .split('\n')
    .map((l) => l.replace(/^[ \t]+/, (ws) => ws.replace(/\t/g, '    ')));
  return parseBlocks(lines, 0);
}

/**
 * Heading levels renumbered by rank from `top` (capped at 6): an answer's `#` and `##` sit below
 * the page's own headings, and levels it skips are closed up, so the page outline stays in order.
 */
export function shiftHeadings(blocks: Block[], top: number): Block[] {
  const used = new Set<number>();
  const collect = (bs: Block[]) => {
    for (const b of bs) {
      if (b.type === 'heading') used.add(b.level);
      else if (b.type === 'quote') collect(b.children);
      else if (b.type === 'list') b.items.forEach(collect);
    }
  };
  collect(blocks);
  const rank = new Map([...used].sort((a, b) => a - b).map((lv, k) => [lv, Math.min(6, top + k)]));
  const map = (bs: Block[]): Block[] =>
    bs.map((b) =>
      b.type === 'heading'
        ? { ...b, level: rank.get(b.level)! }
        : b.type === 'quote'
          ? { ...b, children: map(b.children) }
          : b.type === 'list'
            ? { ...b, items: b.items.map(map) }
            : b,
    );
  return map(blocks);
}
