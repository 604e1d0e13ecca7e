/**
 * Subcommand registry. Each subcommand is its own module exporting a `Command`; later ones
 * (`embed`, `build-memory`, `eval`, `mcp`) are added to this list and nothing else changes.
 */
import type { Command } from '../io';
import { importCommand } from './import';

export const COMMANDS: readonly Command[] = [importCommand];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
