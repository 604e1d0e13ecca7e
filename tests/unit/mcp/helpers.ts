/**
 * `toolmem mcp --memory FILE` started over stdio (bin/toolmem.mjs, as a client application starts
 * it) and driven with the MCP SDK's client. Every server a file starts is closed after its tests.
 */
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll } from 'vitest';

const REPO = resolve(import.meta.dirname, '../../..');

/** Call at module level: returns `connect(memoryFile)`, and closes every client after the file's tests. */
export function mcpServers(): (memory: string) => Promise<Client> {
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients.splice(0)) await c.close();
  });
  return async (memory) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO, 'bin/toolmem.mjs'), 'mcp', '--memory', memory],
      cwd: REPO,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'toolmem-test', version: '0.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
}
