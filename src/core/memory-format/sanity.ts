/**
 * Checks that keep out files which parse but cannot work (issue #14, class 4):
 *  - the raw JSON value (before the schema): numbers that overflowed to ±Infinity (`1e999`, which
 *    JSON.parse accepts and a later JSON.stringify would silently write as `null`), strings longer
 *    than `MAX_STRING_CHARS`, nesting deeper than `MAX_DEPTH` (the canonical writer recurses);
 *  - the parsed file: a scale whose min is not below its max (every prediction would clamp to one
 *    value), vector numbers outside float32 (the canonical form rounds them to float32, so they
 *    would become Infinity → `null`);
 *  - against the embedding model that will use the file: the vectors' dimension.
 * The walk is iterative, so hostile nesting cannot overflow the stack.
 */
import { quote } from '../text/quote';
import type { MemoryFile } from './schema';

/** Longest string value accepted anywhere in a memory file (entry texts are a sentence or two). */
export const MAX_STRING_CHARS = 100_000;
/** Deepest nesting of arrays/objects (the format itself needs 6; free-form settings get the rest). */
export const MAX_DEPTH = 64;
/** Problems listed at most; the rest are counted in one closing line. */
export const MAX_ISSUES = 50;
const FLOAT32_MAX = 3.4028234663852886e38;

export interface SanityIssue {
  path: readonly PropertyKey[];
  message: string;
}

interface Node {
  value: unknown;
  parent: Node | null;
  key: PropertyKey;
  depth: number;
}

function pathOf(n: Node): PropertyKey[] {
  const out: PropertyKey[] = [];
  for (let p: Node | null = n; p && p.parent; p = p.parent) out.push(p.key);
  return out.reverse();
}

const fmt = (n: number) => n.toLocaleString('en-US');

function primitiveIssue(value: unknown): string | null {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return `number too large: it overflows to ${value > 0 ? 'Infinity' : '-Infinity'} (numbers in a memory file must be finite, within ±1.8e308)`;
  }
  if (typeof value === 'string' && value.length > MAX_STRING_CHARS) {
    return `string of ${fmt(value.length)} characters is too long (at most ${fmt(MAX_STRING_CHARS)}): ${quote(value, 60)}`;
  }
  return null;
}

/**
 * Problems of the raw JSON value, in document order. Stops collecting after `limit` problems but
 * keeps counting (`more`).
 */
export function rawValueIssues(data: unknown, limit = MAX_ISSUES): { issues: SanityIssue[]; more: number } {
  const issues: SanityIssue[] = [];
  let more = 0;
  const add = (node: Node, key: PropertyKey | null, message: string) => {
    if (issues.length >= limit) {
      more++;
      return;
    }
    const path = pathOf(node);
    issues.push({ path: key === null ? path : [...path, key], message });
  };
  const stack: Node[] = [{ value: data, parent: null, key: '', depth: 0 }];
  while (stack.length) {
    const node = stack.pop()!;
    const own = primitiveIssue(node.value);
    if (own) add(node, null, own);
    if (node.value === null || typeof node.value !== 'object') continue;
    if (node.depth >= MAX_DEPTH) {
      add(node, null, `nested more than ${MAX_DEPTH} levels deep (arrays/objects); a memory file nests at most ${MAX_DEPTH}`);
      continue;
    }
    const children: [PropertyKey, unknown][] = Array.isArray(node.value) ? node.value.map((v, i) => [i, v]) : Object.entries(node.value);
    // Primitives are checked here (vectors hold millions of numbers); containers go on the stack,
    // last child first, so they come off in document order.
    for (const [key, value] of children) {
      if (value !== null && typeof value === 'object') continue;
      const msg = primitiveIssue(value);
      if (msg) add(node, key, msg);
    }
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, value] = children[i]!;
      if (value !== null && typeof value === 'object') stack.push({ value, parent: node, key, depth: node.depth + 1 });
    }
  }
  return { issues, more };
}

/** Problems of a schema-valid file that the schema cannot see: scale order, float32 range. */
export function fileSanityIssues(file: MemoryFile): SanityIssue[] {
  const out: SanityIssue[] = [];
  const { min, max } = file.build.scale;
  if (!(min < max)) {
    out.push({
      path: ['build', 'scale'],
      message:
        `min ${min} is not below max ${max}: every prediction would be clamped to one value. Write the lowest score as min and the highest ` +
        `as max (for a scale where lower is better, keep min < max and set direction "lower-better").`,
    });
  }
  for (const [entryId, v] of Object.entries(file.embeddings?.vectors ?? {})) {
    const i = v.findIndex((x) => Math.abs(x) > FLOAT32_MAX);
    if (i >= 0)
      out.push({ path: ['embeddings', 'vectors', entryId, i], message: `${v[i]} does not fit a float32 (at most ±3.4e38): vectors are float32 values` });
  }
  return out;
}

/**
 * The vectors' dimension against the embedding model that will retrieve with them (`dim` = that
 * model's output size). Vectors of another size would load and then fail every similarity.
 */
export function embeddingDimIssues(file: MemoryFile, modelDim: number): SanityIssue[] {
  const emb = file.embeddings;
  if (!emb || emb.dim === modelDim) return [];
  return [
    {
      path: ['embeddings', 'dim'],
      message:
        `the vectors have ${emb.dim} numbers each, but the embedding model ${quote(emb.model)} makes vectors of ${modelDim}: they cannot be ` +
        `compared with its task vectors. Export the memory again with this model's vectors, or without vectors.`,
    },
  ];
}
