/** Output channels and exit codes shared by every subcommand (kept injectable for tests). */

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/** Exit codes (stable contract): 0 done, 1 bad usage, 2 input could not be read or imported at all. */
export const EXIT = { ok: 0, usage: 1, unreadable: 2 } as const;

/** Bad command line: printed with the command's usage, exit code 1. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Command {
  name: string;
  /** One line for `toolmem --help`. */
  summary: string;
  usage: string;
  run(args: string[], io: Io): Promise<number>;
}
