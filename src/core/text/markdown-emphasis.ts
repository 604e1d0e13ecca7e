/**
 * Emphasis for markdown-inline.ts: CommonMark's delimiter-run matching (`*`, `_`, and `~~` for
 * strike-through), in time linear in the runs, with nesting bounded so hostile input stays cheap.
 */
/** An inline node of the tree (markdown-inline.ts parses them; this module nests emphasis). */
export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'em' | 'strong' | 'del'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'br' };

/** Emphasis deeper than this stays as its literal `*`/`_` (hostile input cannot nest without bound). */
export const MAX_INLINE_DEPTH = 16;

export interface Delim {
  type: 'delim';
  ch: '*' | '_' | '~';
  count: number;
  orig: number;
  canOpen: boolean;
  canClose: boolean;
}
export type Piece = Inline | Delim;
interface Cell {
  piece: Piece;
  prev: Cell | null;
  next: Cell | null;
}

function depthOf(nodes: Inline[]): number {
  let d = 0;
  for (const n of nodes) if ('children' in n) d = Math.max(d, 1 + depthOf(n.children));
  return d;
}

/** CommonMark's delimiter matching (with its "multiple of 3" rule), over a linked list. */
export function emphasis(pieces: Piece[]): Inline[] {
  const head: Cell = { piece: { type: 'text', text: '' }, prev: null, next: null };
  let tail = head;
  for (const piece of pieces) {
    const cell: Cell = { piece, prev: tail, next: null };
    tail.next = cell;
    tail = cell;
  }
  const remove = (cell: Cell) => {
    cell.prev!.next = cell.next;
    if (cell.next) cell.next.prev = cell.prev;
  };
  // The lowest cell worth searching for an opener, per closer kind (keeps matching linear).
  const bottom = new Map<string, Cell>();
  let closer = head.next;
  while (closer) {
    const d = closer.piece;
    if (d.type !== 'delim' || !d.canClose) {
      closer = closer.next;
      continue;
    }
    const key = `${d.ch}${d.canOpen ? 1 : 0}${d.orig % 3}`;
    const floor = bottom.get(key) ?? head;
    let opener: Cell | null = closer.prev;
    let found: Cell | null = null;
    while (opener && opener !== floor && opener !== head) {
      const o = opener.piece;
      if (o.type === 'delim' && o.ch === d.ch && o.canOpen) {
        const odd = (o.canClose || d.canOpen) && (o.orig + d.orig) % 3 === 0 && !(o.orig % 3 === 0 && d.orig % 3 === 0);
        if (!odd) {
          found = opener;
          break;
        }
      }
      opener = opener.prev;
    }
    if (!found) {
      bottom.set(key, closer.prev ?? head);
      closer = closer.next;
      continue;
    }
    const o = found.piece as Delim;
    const use = d.ch === '~' ? 2 : o.count >= 2 && d.count >= 2 ? 2 : 1;
    const children: Inline[] = [];
    for (let c = found.next; c && c !== closer; c = c.next) push(children, asInline(c.piece));
    const type = d.ch === '~' ? 'del' : use === 2 ? 'strong' : 'em';
    const inner: Inline[] =
      depthOf(children) + 1 > MAX_INLINE_DEPTH
        ? [{ type: 'text', text: d.ch.repeat(use) }, ...children, { type: 'text', text: d.ch.repeat(use) }]
        : [{ type, children }];
    // Replace everything between opener and closer by the new node(s).
    let at: Cell = found;
    at.next = closer;
    closer.prev = at;
    for (const node of inner) {
      const cell: Cell = { piece: node, prev: at, next: closer };
      at.next = cell;
      closer.prev = cell;
      at = cell;
    }
    o.count -= use;
    d.count -= use;
    if (o.count === 0) remove(found);
    if (d.count === 0) {
      const next = closer.next;
      remove(closer);
      closer = next;
    }
  }
  const out: Inline[] = [];
  for (let c = head.next; c; c = c.next) push(out, asInline(c.piece));
  return out;
}

function asInline(p: Piece): Inline {
  return p.type === 'delim' ? { type: 'text', text: p.ch.repeat(p.count) } : p;
}

/** Appends, merging adjacent text nodes (and dropping empty ones). */
function push(out: Inline[], node: Inline): void {
  if (node.type === 'text') {
    if (!node.text) return;
    const last = out[out.length - 1];
    if (last?.type === 'text') {
      out[out.length - 1] = { type: 'text', text: last.text + node.text };
      return;
    }
  }
  out.push(node);
}
