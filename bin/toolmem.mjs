#!/usr/bin/env node
// `toolmem` entry point (package.json "bin"). The CLI is TypeScript run through tsx: its ESM loader
// is registered in this same process (no child process, so stdio, signals and exit codes stay
// ours), then src/cli/main.ts is imported by an absolute URL, so any working directory works.
import { register } from 'tsx/esm/api';

register();
const { main } = await import(new URL('../src/cli/main.ts', import.meta.url).href);
process.exitCode = await main(process.argv.slice(2));
