/** `toolmem` command dispatcher: `toolmem <command> [options]`. Returns the exit code. */
import { COMMANDS, findCommand } from './commands';
import { EXIT, processIo, type Io } from './io';

export function mainUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return ['Usage: toolmem <command> [options]', '', 'Commands:', ...lines, '', 'Run `toolmem <command> --help` for the options of a command.'].join('\n');
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.err(mainUsage());
    return EXIT.usage;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(mainUsage());
    return EXIT.ok;
  }
  const command = findCommand(name);
  if (!command) {
    io.err(`toolmem: unknown command '${name}'.\n\n${mainUsage()}`);
    return EXIT.usage;
  }
  return command.run(rest, io);
}
