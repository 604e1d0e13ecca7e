import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ALLOW_LIST, DOCS, exportOf, modeOf, problemOf, shellCommands, writesOf } from '../../../scripts/docs/commands';

const ROOT = resolve(import.meta.dirname, '../../..');
const commandsOf = (doc: string) => shellCommands(doc, readFileSync(join(ROOT, doc), 'utf8'));

// `npm run test:docs` runs them (minutes: builds, servers); this checks, in the gate, that each can run as written.
describe('the commands of README.md and docs/serving.md', () => {
  it('reads ```sh blocks only, one command per line, `\\` continuing it and `&&` splitting it', () => {
    const md = ['```text', 'npx toolmem x --data FILE', '```', '```sh', '# a comment', 'npm install && npm start', 'curl -sf http://a \\', "  -d '{\"a\": 1}'", '```', '```json', '{"b": 2}', '```'].join('\n');
    expect(shellCommands('x.md', md)).toEqual([
      { doc: 'x.md', line: 6, command: 'npm install' },
      { doc: 'x.md', line: 6, command: 'npm start' },
      { doc: 'x.md', line: 7, command: `curl -sf http://a -d '{"a": 1}'` },
    ]);
  });

  it('every command runs as written: no placeholder, every file it reads is in the repository or written before it', () => {
    const problems: string[] = [];
    for (const doc of DOCS) {
      const made = new Set<string>();
      for (const c of commandsOf(doc)) {
        const p = problemOf(c.command, (path) => existsSync(join(ROOT, path)), made);
        if (p) problems.push(`${doc}:${c.line} ${c.command}: ${p}`);
        for (const w of writesOf(c.command)) made.add(w);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the README builds the MCP example from the demo files with their skills (issue #38), and serving.md has a curl example', () => {
    const readme = commandsOf('README.md').map((c) => c.command);
    expect(readme).toContain('npx toolmem build-memory --data public/demo/genai_image.json --skills public/demo/genai_skills.json --out memory.json');
    expect(readme).toContain('npx toolmem mcp --memory memory.json');
    const serving = commandsOf('docs/serving.md').map((c) => c.command);
    expect(serving.some((c) => c.startsWith('curl -sf http://127.0.0.1:7410/v1/select') && c.includes('Bearer $TOOLMEM_TOKEN'))).toBe(true);
    expect(serving.some((c) => exportOf(c)?.name === 'TOOLMEM_TOKEN')).toBe(true);
  });

  it('the allow-list holds only commands the docs have, and the servers and the gate are on it', () => {
    const all = new Set(DOCS.flatMap((d) => commandsOf(d).map((c) => c.command)));
    expect([...ALLOW_LIST.keys()].filter((k) => !all.has(k))).toEqual([]);
    const kinds = [...all].map((c) => [c, modeOf(c).kind] as const).filter(([, k]) => k !== 'run');
    expect(Object.fromEntries(kinds)).toEqual({
      'npm install': 'install',
      'npm start': 'http',
      'npm test': 'gate',
      'npx toolmem mcp --memory memory.json': 'mcp-stdio',
      'npx toolmem serve --memory memory.json --routes docs/routes.example.json --port 7410': 'http',
      'npx toolmem serve --memory memory.json --port 7410': 'http',
    });
  });
});
