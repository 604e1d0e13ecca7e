/**
 * Subcommand registry. Each subcommand is its own module exporting a `Command`; later ones
 * (`embed`, `build-memory`, `eval`, `mcp`) are added to this list and nothing else changes.
 */
import type { Command } from '../io';
import { buildMemoryCommand } from './build-memory';
import { embedCommandSpec } from './embed';
import { evalCommand } from './eval';
import { importCommand } from './import';
import { mcpCommand } from './mcp';
import { serveCommand } from './serve';
import { verifyCommand } from './verify';

export const COMMANDS: readonly Command[] = [importCommand, embedCommandSpec, buildMemoryCommand, evalCommand, verifyCommand, mcpCommand, serveCommand];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
