/**
 * Graceful shutdown of `toolmem serve` without resets. node:http's own `server.close()` destroys
 * every keep-alive connection that is between two requests at that instant — a client that is
 * just sending its next request on it gets ECONNRESET (1 in ~3,600 requests under keep-alive
 * load, issue #35). Instead, on close:
 *  0. for ACCEPT_GRACE_MS the server still accepts and answers as usual (connections already on
 *     their way are taken, not reset from the accept queue), /readyz already says 503;
 *  1. the listener stops accepting (new connections are refused by the kernel, never reset);
 *  2. every answer from now on says `Connection: close`, so a client that sends one more request
 *     on a kept-alive connection gets its answer and then opens no new one here;
 *  3. a connection idle for IDLE_GRACE_MS, 1 s (no request in progress, none for that long: the client
 *     is not in the middle of its next one) is half-closed (FIN) — a client sees an ordinary
 *     close of an idle pooled connection — and destroyed once the client closes its end;
 *  4. when no connection is left, or after `drainMs`, the rest is destroyed and close resolves.
 */
import { Server as NetServer, type Socket } from 'node:net';
import type { Server } from 'node:http';

/** How long a connection must have been idle before a draining server closes it. */
export const IDLE_GRACE_MS = 1_000;
/**
 * How long a stopping server keeps accepting before it closes its listener: connections clients
 * opened just before (a burst of new requests) are accepted and answered rather than reset from
 * the kernel's accept queue when the listener closes.
 */
export const ACCEPT_GRACE_MS = 500;

/**
 * Waits `ms`, then one more poll phase of the event loop (where pending connections are accepted):
 * the listener is closed from the check phase right after it, so what was waiting is taken.
 */
export function afterAcceptGrace(ms = ACCEPT_GRACE_MS): Promise<void> {
  return new Promise((resolve) => setTimeout(() => setImmediate(resolve), ms));
}
const POLL_MS = 25;

interface ConnState {
  /** Requests in progress (a pipelining client may have more than one). */
  busy: number;
  idleSince: number;
  ending: boolean;
}

export class ConnectionTracker {
  private readonly conns = new Map<Socket, ConnState>();

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      this.conns.set(socket, { busy: 0, idleSince: performance.now(), ending: false });
      socket.once('close', () => this.conns.delete(socket));
    });
  }

  get size(): number {
    return this.conns.size;
  }

  /** A request started on `socket`; call the returned function when its answer is done. */
  begin(socket: Socket): () => void {
    const state = this.conns.get(socket);
    if (!state) return () => {};
    state.busy++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      state.busy--;
      state.idleSince = performance.now();
    };
  }

  /** Half-closes the connections idle for at least `graceMs`. */
  endIdle(graceMs: number): void {
    const now = performance.now();
    for (const [socket, state] of this.conns) {
      if (state.busy > 0 || state.ending || now - state.idleSince < graceMs) continue;
      state.ending = true;
      socket.end();
      // The client closes its end in answer to ours; if it never does, drain's deadline does.
      socket.once('end', () => socket.destroy());
    }
  }

  destroyAll(): void {
    for (const socket of this.conns.keys()) socket.destroy();
  }
}

/**
 * Stops accepting new connections, leaving the open ones alone (http.Server's close would destroy
 * the idle ones at once); resolves once every connection is gone (or at once when not listening).
 */
export function stopListening(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
}

/** Stops accepting, then closes the connections as described above; resolves when none is left. */
export async function drainServer(server: Server, tracker: ConnectionTracker, drainMs: number): Promise<void> {
  const closed = stopListening(server);
  const until = performance.now() + drainMs;
  while (tracker.size > 0 && performance.now() < until) {
    tracker.endIdle(IDLE_GRACE_MS);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  tracker.destroyAll();
  await closed;
  // Now http.Server's own close only stops its connection-timeout interval (nothing is left open).
  server.close(() => {});
}
