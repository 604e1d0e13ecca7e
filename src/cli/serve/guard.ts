/**
 * Who may talk to `toolmem serve`: the bearer token (every route but /healthz), the Origin of a
 * browser page (DNS rebinding: a page on another origin must not reach a loopback server), and,
 * when bound to loopback, the Host header (a rebound name arrives with the attacker's host name).
 * The token is compared in constant time over SHA-256 digests, so neither its bytes nor its length
 * leak through timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { normalOrigin } from './cors';
import { HttpError } from './http';

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export interface GuardOptions {
  /** Bearer token required on every route but /healthz; null: none (loopback only). */
  token: string | null;
  /** Origins allowed besides loopback pages (exact `scheme://host[:port]`). */
  allowOrigins: readonly string[];
  /** Bound to a loopback address: the Host header must name loopback too. */
  loopback: boolean;
}

export function createGuard(opts: GuardOptions) {
  const expected = opts.token === null ? null : digest(opts.token);
  const origins = new Set(opts.allowOrigins.map(normalOrigin).filter((o) => o !== null));

  /**
   * Authorization headers that passed, per connection: the next request on that connection with the
   * same header is not hashed again. Only a header that was the right token is kept, and only its
   * own connection compares against it, so what the comparison's time could tell is already known
   * to that client.
   */
  const passed = new WeakMap<object, string>();

  function checkToken(headers: IncomingHttpHeaders, connection?: object): void {
    if (!expected) return;
    const auth = headers.authorization;
    if (connection !== undefined && auth !== undefined && passed.get(connection) === auth) return;
    const m = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
    const challenge = { 'www-authenticate': 'Bearer realm="toolmem"' };
    if (!m)
      throw new HttpError(401, 'authentication_error', 'missing_token', 'This server needs a bearer token: send "Authorization: Bearer <token>".', challenge);
    if (!timingSafeEqual(digest(m[1]!), expected))
      throw new HttpError(401, 'authentication_error', 'invalid_token', 'The bearer token is not the one this server was started with.', challenge);
    if (connection !== undefined) passed.set(connection, auth!);
  }

  function checkOrigin(headers: IncomingHttpHeaders): void {
    const origin = headers.origin;
    if (origin === undefined) return; // not a browser page (or a same-origin GET): nothing to rebind
    let host = '';
    try {
      host = new URL(origin).hostname;
    } catch {
      /* "null" or garbage: refused below */
    }
    const normal = normalOrigin(origin);
    if (isLoopbackHost(host) || (normal !== null && origins.has(normal))) return;
    throw new HttpError(
      403,
      'permission_error',
      'origin_not_allowed',
      'Requests from this Origin are refused (start the server with --allow-origin to allow a page).',
    );
  }

  function checkHost(headers: IncomingHttpHeaders): void {
    if (!opts.loopback) return;
    const host = (headers.host ?? '').replace(/:\d+$/, '');
    if (!isLoopbackHost(host))
      throw new HttpError(
        403,
        'permission_error',
        'host_not_allowed',
        'This server is bound to loopback and answers only requests for localhost / 127.0.0.1 / [::1].',
      );
  }

  return { checkToken, checkOrigin, checkHost };
}

export type Guard = ReturnType<typeof createGuard>;
