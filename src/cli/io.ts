import { parseArgs, type ParseArgsConfig } from 'node:util';
import { quote } from '../core/text/quote';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

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

type StrictValues<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: false }>
>['values'];

/** `parseArgs` as every subcommand uses it (strict, no positionals); its complaints become UsageErrors. */
/**
 * `--scale -25:0:real`: node's parseArgs refuses a string option's value that starts with '-'
 * ("argument is ambiguous"). A value that starts with '-' and a digit (a negative number, never an
 * option name) is joined to its option as `--scale=-25:0:real`.
 */
export function joinNegativeValues(args: string[], options: ParseArgsOptionsConfig): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    const option = name !== undefined && Object.hasOwn(options, name) ? options[name] : undefined;
    if (option?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

export function strictArgs<const O extends ParseArgsOptionsConfig>(args: string[], options: O): StrictValues<O> {
  try {
    return parseArgs({ args: joinNegativeValues(args, options), options, strict: true as const, allowPositionals: false as const }).values as StrictValues<O>;
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * The start every subcommand shares: parse the command line, or print the problem with the usage
 * (exit 1); `--help` prints the usage (exit 0). Returns the options, or the exit code to stop with.
 */
export function parseOrExit<T extends { help: boolean }>(command: string, usage: string, args: string[], parse: (args: string[]) => T, io: Io): T | number {
  let opts: T;
  try {
    opts = parse(args);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`toolmem ${command}: ${err.message}\n\n${usage}`);
    return EXIT.usage;
  }
  if (opts.help) {
    io.out(usage);
    return EXIT.ok;
  }
  return opts;
}

/**
 * A subcommand from its parser and its body: bad usage (exit 1, with the usage) and `--help` are
 * answered here once, so a body only ever sees parsed options.
 */
export function command<T extends { help: boolean }>(
  name: string,
  summary: string,
  usage: string,
  parse: (args: string[]) => T,
  body: (opts: T, io: Io) => Promise<number>,
): Command {
  return {
    name,
    summary,
    usage,
    run: async (args, io) => {
      const opts = parseOrExit(name, usage, args, parse, io);
      return typeof opts === 'number' ? opts : body(opts, io);
    },
  };
}

/**
 * A whole-number option (`--train 200`): digits only (no sign, decimal point, exponent or `0x`),
 * a safe integer, at least `min`; undefined when the option is absent.
 */
export function wholeNumberArg(name: string, text: string | undefined, min = 1): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`--${name} must be a whole number ≥ ${min}, got ${quote(text)}.`);
  }
  return n;
}
