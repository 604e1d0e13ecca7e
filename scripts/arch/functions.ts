/**
 * Function lengths in src/ and workers/ (TypeScript and the <script> blocks of Svelte files), for
 * scripts/arch/counts.ts and the architecture docs test. A function's length is its lines from the
 * line its declaration starts on to the line of its closing brace, nested functions included, so a
 * factory returning a table of inline methods counts all of them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface FunctionSpan {
  file: string;
  name: string;
  line: number;
  lines: number;
}

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir)).sort()) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(root, path));
    else if (/\.(ts|svelte)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The script of a Svelte file with every other line blanked, so line numbers stay the file's. */
function scriptOf(text: string): string {
  const out = text.split('\n').map(() => '');
  const re = /<script[^>]*>([\s\S]*?)<\/script>/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const startLine = text.slice(0, m.index + m[0].indexOf('>') + 1).split('\n').length - 1;
    m[1]!.split('\n').forEach((line, i) => (out[startLine + i] = (i === 0 ? ' '.repeat(0) : '') + line));
  }
  return out.join('\n');
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}

export function functionSpans(root: string, dirs: readonly string[] = ['src', 'workers']): FunctionSpan[] {
  const out: FunctionSpan[] = [];
  for (const file of dirs.flatMap((d) => sourceFiles(root, d))) {
    const raw = readFileSync(join(root, file), 'utf8');
    const text = file.endsWith('.svelte') ? scriptOf(raw) : raw;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        out.push({ file: relative(root, join(root, file)), name: nameOf(node), line: start + 1, lines: end - start + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/** Functions longer than `limit` lines, longest first. */
export function longFunctions(root: string, limit = 80): FunctionSpan[] {
  return functionSpans(root)
    .filter((f) => f.lines > limit)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}
