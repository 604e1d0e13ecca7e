import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

// The import graph of the app's own code (src/ and workers/), read the way the bundler reads it:
// static imports, `import type`, `export … from`, dynamic `import()` and `import('…').T` type queries
// all count, because a type-only cycle still ties the files together for a reader and for tsc.
// Only relative specifiers are edges; packages are outside the graph. Paths are repo-relative with
// forward slashes, so the figures and messages read the same on every machine.

export const ROOT = resolve(import.meta.dirname, '../..');
export const GRAPH_DIRS = ['src', 'workers'] as const;

export interface ImportGraph {
  /** Every .ts / .svelte file under the graph's directories, sorted. */
  files: string[];
  /** file → the files it imports (resolved, sorted, no duplicates). */
  edges: Map<string, string[]>;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return walk(path);
    return /\.(ts|svelte)$/.test(d.name) && !d.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The script blocks of a Svelte component (instance and module), concatenated. */
function svelteScripts(text: string): string {
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

/** Import specifiers of one file's text; comments and strings are skipped by the TypeScript scanner. */
export function specifiersOf(text: string, isSvelte = false): string[] {
  const info = ts.preProcessFile(isSvelte ? svelteScripts(text) : text, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** Resolve a relative specifier as Vite and tsc (moduleResolution "bundler") do; undefined if not ours. */
export function resolveSpecifier(fromFile: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(fromFile), spec.replace(/\?.*$/, ''));
  const stem = base.replace(/\.js$/, '');
  const candidates = [base, `${stem}.ts`, `${base}.ts`, join(base, 'index.ts')];
  return candidates.find(isFile);
}

export function readGraph(root = ROOT, dirs: readonly string[] = GRAPH_DIRS): ImportGraph {
  const abs = dirs.flatMap((d) => walk(join(root, d))).sort();
  const rel = (p: string) => relative(root, p).split('\\').join('/');
  const edges = new Map<string, string[]>();
  for (const file of abs) {
    const targets = new Set<string>();
    for (const spec of specifiersOf(readFileSync(file, 'utf8'), file.endsWith('.svelte'))) {
      const target = resolveSpecifier(file, spec);
      if (target) targets.add(rel(target));
    }
    edges.set(rel(file), [...targets].sort());
  }
  return { files: abs.map(rel), edges };
}

/**
 * Strongly connected components with more than one file (or a file importing itself): each one is a
 * cycle. Tarjan's algorithm, iterative so a deep graph cannot overflow the stack. Each component is
 * sorted, and the list is sorted by size (largest first), then by first file.
 */
export function cycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let next = 0;
  for (const start of graph.files) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.edges.get(frame.node) ?? [];
      if (frame.i < targets.length) {
        const t = targets[frame.i++]!;
        if (!index.has(t)) {
          index.set(t, next);
          low.set(t, next++);
          stack.push(t);
          onStack.add(t);
          work.push({ node: t, i: 0 });
        } else if (onStack.has(t)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(t)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && targets.includes(frame.node);
        if (component.length > 1 || selfLoop) out.push(component.sort());
      }
    }
  }
  return out.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}
