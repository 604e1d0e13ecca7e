/**
 * Processes of bench:serve: starting a child and waiting for its ready line, and the CPU time a
 * process and its children (a cluster's workers) have used, from /proc (Linux; NaN elsewhere).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '../..');

export interface Child {
  proc: ChildProcess;
  match: RegExpMatchArray;
  /** Every line it printed (stdout and stderr), kept as they come. */
  log: string[];
}

/** Starts `node args…` in the repository and resolves once a line matches `ready`. */
export function child(args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<Child> {
  const proc = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const log: string[] = [];
  return new Promise((res, rej) => {
    let buf = '';
    const onLine = (d: Buffer) => {
      buf += d.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        log.push(line);
        const m = ready.exec(line);
        if (m) res({ proc, match: m, log });
      }
    };
    proc.stdout!.on('data', onLine);
    proc.stderr!.on('data', onLine);
    proc.once('exit', (code) => rej(new Error(`${args.join(' ')} exited with ${code}: ${log.slice(-5).join(' | ')}`)));
  });
}

function statCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms (USER_HZ 100)
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU milliseconds (user + system) used by `pid` and its living children. */
export function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    return (
      statCpuMs(pid) +
      childrenOf(pid).reduce((sum, c) => {
        const v = cpuMs(c);
        return sum + (Number.isFinite(v) ? v : 0);
      }, 0)
    );
  } catch {
    return NaN;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
