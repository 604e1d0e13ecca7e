/**
 * Inline Markdown (a CommonMark subset): code spans, emphasis, strong, ~~strike~~, links and hard
 * breaks. The result is a tree of whitelisted node types whose text is plain text: a renderer turns
 * it into DOM text nodes or escaped HTML, so nothing from the data is ever interpreted as HTML.
 * Raw HTML (`<script>`, `<img onerror=…>`) is therefore just text, images are not loaded (their
 * syntax stays text: the app makes no request the user did not ask for), and a link is kept only
 * when its address is http(s); any other link (`javascript:`, `data:`, relative) is shown as the
 * text it was written as.
 */

import { emphasis, type Inline, type Piece } from './markdown-emphasis';

export { MAX_INLINE_DEPTH } from './markdown-emphasis';
// The node type lives in markdown-emphasis.ts (which builds nodes and may not import back).
export type { Inline };

/** How far a link's label or address may reach (bounds the work on text full of unmatched `[`). */
const MAX_LABEL = 1000;
const MAX_DEST = 2048;

const PUNCT = /[!-/:-@[-`{-~\p{P}\p{S}]/u;
const ESCAPABLE = /[!-/:-@[-`{-~]/;

/** The address, normalised, when it is an absolute http(s) URL; null for anything else. */
export function safeHref(raw: string): string | null {
  const url = raw.trim();
  // Control characters and spaces can hide a scheme from a naive check ("java\tscript:").
  // eslint-disable-next-line no-control-regex
  if (!/^https?:\/\//i.test(url) || /[\u0000-\u0020\u007f]/.test(url)) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

function unescape(s: string): string {
  return s.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** Index just past a link's `](dest "title")` tail starting at `at` (the `(`), with the address. */
function linkTail(src: string, at: number): { end: number; dest: string } | null {
  if (src[at] !== '(') return null;
  let i = at + 1;
  while (src[i] === ' ' || src[i] === '\n') i++;
  let dest: string;
  if (src[i] === '<') {
    const close = src.indexOf('>', i);
    if (close < 0 || close - i > MAX_DEST || src.slice(i, close).includes('\n')) return null;
    dest = src.slice(i + 1, close);
    i = close + 1;
  } else {
    let depth = 0;
    const start = i;
    for (; i < src.length && i - start <= MAX_DEST; i++) {
      const c = src[i]!;
      if (c === '\\' && i + 1 < src.length) {
        i++;
        continue;
      }
      if (c === ' ' || c === '\n' || c < ' ') break;
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) break;
        depth--;
      }
    }
    dest = src.slice(start, i);
  }
  while (src[i] === ' ' || src[i] === '\n') i++;
  const q = src[i];
  if (q === '"' || q === "'" || q === '(') {
    const closeQ = q === '(' ? ')' : q;
    const close = src.indexOf(closeQ, i + 1);
    if (close < 0 || close - i > MAX_LABEL) return null;
    i = close + 1;
    while (src[i] === ' ' || src[i] === '\n') i++;
  }
  return src[i] === ')' ? { end: i + 1, dest: unescape(dest) } : null;
}

/** Index of the `]` closing the label opened at `at`, or -1. */
function labelEnd(src: string, at: number): number {
  let depth = 0;
  for (let i = at + 1; i < src.length && i - at <= MAX_LABEL; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

const BARE_URL = /^https?:\/\/[^\s<>"]+/i;

/** A bare URL's extent: trailing sentence punctuation and an unbalanced `)` are not part of it. */
function bareUrl(src: string, at: number): string | null {
  const m = BARE_URL.exec(src.slice(at, at + MAX_DEST));
  if (!m) return null;
  let url = m[0];
  for (;;) {
    const last = url[url.length - 1]!;
    if (/[.,:;!?'*_~]/.test(last)) url = url.slice(0, -1);
    else if (last === ')' && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) url = url.slice(0, -1);
    else break;
  }
  return url;
}

/** Backtick runs, found once: each run's closer is the next run of the same length (linear time). Opener offset → closer offset. */
function codeSpanClosers(src: string): Map<number, number> {
  const runs: { at: number; len: number }[] = [];
  for (const m of src.matchAll(/`+/g)) runs.push({ at: m.index, len: m[0].length });
  const closer = new Map<number, number>();
  const lastOfLen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    const r = runs[k]!;
    const next = lastOfLen.get(r.len);
    if (next !== undefined) closer.set(r.at, runs[next]!.at);
    lastOfLen.set(r.len, k);
  }
  return closer;
}

/**
 * A link starting at `i` (a [label](dest), an <https://…> autolink, a bare http(s) URL), with where it
 * ends; `piece` is absent when it is kept as written (an unsafe address, an image). Null: no link here.
 */
function linkAt(src: string, i: number): { piece?: Piece; end: number } | null {
  const c = src[i]!;
  if (c === '[') {
    const close = labelEnd(src, i);
    const tail = close > 0 ? linkTail(src, close + 1) : null;
    if (!tail) return null;
    const href = safeHref(tail.dest);
    const image = src[i - 1] === '!';
    // As written: an unsafe address or an image is text.
    return href && !image ? { piece: { type: 'link', href, children: parseInline(src.slice(i + 1, close), false) }, end: tail.end } : { end: tail.end };
  }
  if (c === '<') {
    const m = /^<(https?:\/\/[^\s<>]*)>/i.exec(src.slice(i, i + MAX_DEST));
    const href = m ? safeHref(m[1]!) : null;
    return m && href ? { piece: { type: 'link', href, children: [{ type: 'text', text: m[1]! }] }, end: i + m[0].length } : null;
  }
  if (i === 0 || /[\s(*_~]/.test(src[i - 1]!)) {
    const url = bareUrl(src, i);
    const href = url ? safeHref(url) : null;
    return url && href ? { piece: { type: 'link', href, children: [{ type: 'text', text: url }] }, end: i + url.length } : null;
  }
  return null;
}

/** Whether a run of `len` delimiters `c` at `i` can open and close emphasis (CommonMark's flanking rules). */
function flanking(src: string, i: number, c: string, len: number): { canOpen: boolean; canClose: boolean } {
  const before = i > 0 ? src[i - 1]! : ' ';
  const after = i + len < src.length ? src[i + len]! : ' ';
  const wsB = /\s/.test(before);
  const wsA = /\s/.test(after);
  const left = !wsA && (!PUNCT.test(after) || wsB || PUNCT.test(before));
  const right = !wsB && (!PUNCT.test(before) || wsA || PUNCT.test(after));
  let canOpen = left;
  let canClose = right;
  if (c === '_') {
    canOpen = left && (!right || PUNCT.test(before));
    canClose = right && (!left || PUNCT.test(after));
  }
  if (c === '~' && len !== 2) canOpen = canClose = false;
  return { canOpen, canClose };
}

/** How many copies of `c` run from `i` on (at least 1: `src[i]` is `c`). */
function runLength(src: string, i: number, c: string): number {
  let len = 1;
  while (src[i + len] === c) len++;
  return len;
}

/** A code span's text: line breaks become spaces; one space each side is stripped when both are there (and it is not all spaces). */
function codeSpanText(raw: string): string {
  const code = raw.replace(/\n/g, ' ');
  return code.length > 1 && code.startsWith(' ') && code.endsWith(' ') && code.trim() ? code.slice(1, -1) : code;
}

/** Parses one block's inline text. `links: false` inside a link's label (no link in a link). */
export function parseInline(src: string, links = true): Inline[] {
  const pieces: Piece[] = [];
  let text = '';
  const flush = () => {
    if (text) pieces.push({ type: 'text', text });
    text = '';
  };
  const closer = codeSpanClosers(src);
  let used = -1; // end of the last code span: runs inside it are not openers

  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\' && i + 1 < src.length) {
      const n = src[i + 1]!;
      if (n === '\n') {
        flush();
        pieces.push({ type: 'br' });
        i += 2;
        continue;
      }
      if (ESCAPABLE.test(n)) {
        text += n;
        i += 2;
        continue;
      }
    }
    if (c === '`') {
      const len = runLength(src, i, '`');
      const end = i > used ? closer.get(i) : undefined;
      if (end !== undefined) {
        flush();
        pieces.push({ type: 'code', text: codeSpanText(src.slice(i + len, end)) });
        i = end + len;
        used = end;
      } else {
        text += '`'.repeat(len);
        i += len;
      }
      continue;
    }
    if (links && (c === '[' || c === '<' || c === 'h' || c === 'H')) {
      const link = linkAt(src, i);
      if (link) {
        if (link.piece) {
          flush();
          pieces.push(link.piece);
        } else text += src.slice(i, link.end);
        i = link.end;
        continue;
      }
    }
    if (c === '\n') {
      // Every line break is kept: a rater judges the answer as it was laid out.
      text = text.replace(/ +$/, '');
      flush();
      pieces.push({ type: 'br' });
      i++;
      while (src[i] === ' ') i++;
      continue;
    }
    if (c === '*' || c === '_' || c === '~') {
      const len = runLength(src, i, c);
      const { canOpen, canClose } = flanking(src, i, c, len);
      if (canOpen || canClose) {
        flush();
        pieces.push({ type: 'delim', ch: c, count: len, orig: len, canOpen, canClose });
      } else text += c.repeat(len);
      i += len;
      continue;
    }
    text += c;
    i++;
  }
  flush();
  return emphasis(pieces);
}
