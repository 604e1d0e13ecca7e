/**
 * The shell commands a reader copies from the docs (issue #38: the README's MCP example failed from
 * the repository's root): every ```sh block of README.md and docs/serving.md, one command per line
 * (a line ending in `\` continues on the next), with how `npm run test:docs` runs it. Synopses
 * with placeholders (`FILE`, `[--port N]`) live in ```text blocks, which are not commands.
 *
 * A command runs as written, from the repository's root, and must exit 0 — except those on the
 * allow-list below, which do not end by themselves (a server) or are the test gate itself: each
 * says how it is started, probed and stopped instead.
 */

/** The documents whose commands are run. */
export const DOCS = ['README.md', 'docs/serving.md'] as const;

export interface DocCommand {
  doc: string;
  /** 1-based line of the command's first line in the document. */
  line: number;
  command: string;
}

/**
 * How a command is run:
 *  - `run`: to its end, exit code 0 within `timeoutS`;
 *  - `http`: a server that keeps running: started, probed until `probe` answers 200 (with the
 *    session's `TOOLMEM_TOKEN` as a bearer token when `auth`), left running for the document's next
 *    commands, stopped (SIGTERM, exit 0) at the document's end;
 *  - `mcp-stdio`: a stdio MCP server: started, sent `initialize` and `tools/list`, its tools checked,
 *    its stdin closed;
 *  - `gate`: `npm test`, the whole gate (type check, lint, unit and end-to-end tests), which runs the
 *    docs' unit test itself: not started from here (it would run for half an hour inside itself);
 *  - `install`: `npm install`, run as written unless DOCS_SKIP_INSTALL=1 (then `npm ls` checks that
 *    the installed packages match the lockfile).
 */
export type RunMode =
  | { kind: 'run'; timeoutS: number }
  | { kind: 'http'; probe: string; auth: boolean; timeoutS: number; expect?: string }
  | { kind: 'mcp-stdio'; tools: string[]; timeoutS: number }
  | { kind: 'gate' }
  | { kind: 'install' };

/** The commands that do not simply run to their end, by their exact text. */
export const ALLOW_LIST: ReadonlyMap<string, RunMode> = new Map<string, RunMode>([
  ['npm install', { kind: 'install' }],
  ['npm start', { kind: 'http', probe: 'http://127.0.0.1:$PORT/', auth: false, timeoutS: 600, expect: '<title>ToolMem Studio</title>' }],
  ['npm test', { kind: 'gate' }],
  ['npx toolmem mcp --memory memory.json', { kind: 'mcp-stdio', tools: ['list_tools', 'predict_score', 'recall', 'select_tool'], timeoutS: 120 }],
  ['npx toolmem serve --memory memory.json --routes docs/routes.example.json --port 7410', { kind: 'http', probe: 'http://127.0.0.1:7410/readyz', auth: true, timeoutS: 120 }],
  ['npx toolmem serve --memory memory.json --port 7410', { kind: 'http', probe: 'http://127.0.0.1:7410/readyz', auth: true, timeoutS: 120 }],
]);

/** The ```sh blocks' commands of a Markdown text, in order; `&&` chains are split into their commands. */
export function shellCommands(doc: string, markdown: string): DocCommand[] {
  const out: DocCommand[] = [];
  const lines = markdown.split('\n');
  let inSh = false;
  let fence = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = /^(\s*)(`{3,})(\w*)\s*$/.exec(line);
    if (!inSh && open) {
      if (open[3] === 'sh' || open[3] === 'bash' || open[3] === 'shell') {
        inSh = true;
        fence = open[2]!;
      } else {
        // Another language's block: skip to its closing fence.
        const close = lines.findIndex((l, j) => j > i && l.trim() === open[2]);
        i = close < 0 ? lines.length : close;
      }
      continue;
    }
    if (!inSh) continue;
    if (line.trim() === fence) {
      inSh = false;
      continue;
    }
    if (!line.trim() || line.trim().startsWith('#')) continue;
    let command = line.trim();
    const first = i + 1;
    while (command.endsWith('\\') && i + 1 < lines.length) command = `${command.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
    for (const part of splitChain(command)) out.push({ doc, line: first, command: part });
  }
  return out;
}

/** `a && b` → ['a', 'b'] (outside quotes); other commands as they are. */
function splitChain(command: string): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '&' && command[i + 1] === '&') {
      parts.push(command.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  parts.push(command.slice(start).trim());
  return parts.filter(Boolean);
}

/** How a command is run: its allow-list entry, else to its end (a build or an evaluation may take minutes). */
export function modeOf(command: string): RunMode {
  return ALLOW_LIST.get(command) ?? { kind: 'run', timeoutS: 600 };
}

/** `export NAME=VALUE`: the session keeps NAME for the document's next commands. */
export function exportOf(command: string): { name: string; value: string } | null {
  const m = /^export ([A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(command);
  return m ? { name: m[1]!, value: m[2]! } : null;
}

/**
 * Why a command cannot run as written, or null: placeholders a reader must replace (`FILE`,
 * `[--opt]`, `…`), or a file the repository does not have. `exists` says whether a path (relative
 * to the repository's root) exists; paths the document's earlier commands write are passed in `made`.
 */
export function problemOf(command: string, exists: (path: string) => boolean, made: ReadonlySet<string>): string | null {
  if (/\[--|…|\bFILE\b|\bURL\b|\bMODEL\b|<[a-z-]+>/.test(command)) return 'a placeholder (FILE, [--option], …) to replace: a synopsis belongs in a ```text block';
  for (const m of command.matchAll(/--(?:data|skills|memory|routes|prompts)\s+(\S+)/g)) {
    const path = m[1]!;
    if (!exists(path) && !made.has(path)) return `${path} is not in the repository (and no earlier command writes it)`;
  }
  return null;
}

/** Files a command writes (its `--out`), so later commands may read them. */
export function writesOf(command: string): string[] {
  return [...command.matchAll(/--out\s+(\S+)/g)].map((m) => m[1]!);
}
