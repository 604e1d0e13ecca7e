/**
 * Reading the `--memory FILE` of a command (`mcp`, `verify`): the file's text, validated as a
 * `toolmem-memory` file. On failure the message (the OS error, or every problem with its JSON path)
 * is written to stderr and the exit code for unreadable input is returned instead of a file.
 */
import { readFile } from 'node:fs/promises';
import { formatIssues, parseMemoryFile, type MemoryFile } from '../core/memory-format';
import { EXIT, type Io } from './io';

export async function readMemoryArg(command: string, path: string, io: Io): Promise<MemoryFile | number> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    io.err(`toolmem ${command}: ${(err as Error).message}`);
    return EXIT.unreadable;
  }
  const parsed = parseMemoryFile(text);
  if (!parsed.ok) {
    io.err(`toolmem ${command}: ${path}: ${formatIssues(parsed.issues)}`);
    return EXIT.unreadable;
  }
  return parsed.file;
}
