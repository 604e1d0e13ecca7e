/**
 * `/mcp`: MCP over Streamable HTTP with the SDK's transport, stateless — every POST gets its own
 * short-lived transport and server (the SDK refuses to reuse a stateless transport), answering
 * from the memory the request started on. Nothing outlives a request, so replicas behind a load
 * balancer need no sticky sessions; GET (a server-to-client stream) and DELETE (end a session)
 * have nothing to serve and get 405. Before the SDK sees a body it goes through the stdio
 * server's checks (jsonrpc-guard.ts), so malformed JSON-RPC gets the same bounded errors over
 * both transports, and replies pass through the same `boundReply`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { checkLine, errorReply, INVALID_REQUEST, PARSE_ERROR } from '../mcp/jsonrpc-guard';
import { mcpServerFor, type ToolHandlers } from '../mcp/server';
import { boundReply } from '../mcp/stdio-transport';
import { sendJson } from './http';

/** The SDK's transport with every outgoing message bounded, as over stdio. */
class BoundedHttpTransport extends StreamableHTTPServerTransport {
  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return super.send(boundReply(message), options);
  }
}

export function mcpMethodNotAllowed(res: ServerResponse): void {
  sendJson(
    res,
    405,
    errorReply(null, INVALID_REQUEST, 'This MCP server is stateless: POST each JSON-RPC message to /mcp (no GET stream, no session to DELETE).'),
    { allow: 'POST' },
  );
}

/** One POST to /mcp whose body has been read (`text`), answered from `handlers`. */
export async function handleMcpPost(req: IncomingMessage, res: ServerResponse, text: string, handlers: ToolHandlers, version: string): Promise<void> {
  if (text.trim() === '') {
    sendJson(res, 400, errorReply(null, PARSE_ERROR, 'Parse error: the body is empty; POST one JSON-RPC message.'));
    return;
  }
  const verdict = checkLine(text);
  if ('ignore' in verdict) {
    res.writeHead(202).end();
    return;
  }
  if ('reply' in verdict) {
    const replies = Array.isArray(verdict.reply) ? verdict.reply : [verdict.reply];
    const bad = verdict.refused === true || replies.some((r) => r.error.code === PARSE_ERROR || r.error.code === INVALID_REQUEST);
    sendJson(res, bad ? 400 : 200, verdict.reply);
    return;
  }
  const server = mcpServerFor(() => handlers, { version });
  const transport = new BoundedHttpTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, verdict.forward);
}
