/**
 * CORS for the origins of `--allow-origin` (and only those): a page of such an origin may call the
 * API with its token and read the answers. Pages of other origins get no CORS header at all, so
 * the browser neither sends their preflighted requests nor lets them read an answer (and the Origin
 * check of guard.ts refuses their simple requests with 403 unless they are loopback pages).
 *  - preflight (OPTIONS with Origin and Access-Control-Request-Method): for an allowed origin 204
 *    with the methods, the request headers a client sends (authorization, content-type, MCP's) and
 *    a max-age; for any other origin 403 without CORS headers. A preflight never carries the token
 *    (browsers send none), so it is answered before the token check;
 *  - answers to an allowed origin: Access-Control-Allow-Origin (that origin, never `*`), Vary:
 *    Origin, and the answer headers a page may read (x-toolmem-*).
 * Chromium's Private Network Access preflight (a public page calling a loopback server) is
 * granted to allowed origins too. No credentials mode: the token travels in a header, not a cookie.
 */
import type { IncomingHttpHeaders } from 'node:http';

export const CORS_MAX_AGE_S = 600;
const ALLOW_HEADERS = 'authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id';
const EXPOSE_HEADERS = 'x-toolmem-memory, x-toolmem-tool, x-toolmem-reason, www-authenticate, retry-after';

/** `scheme://host[:port]` as browsers send it: lower-case, no trailing slash, default port dropped. */
export function normalOrigin(origin: string): string | null {
  try {
    const u = new URL(origin);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

export interface Preflight {
  status: number;
  headers: Record<string, string>;
}

export function createCors(allowOrigins: readonly string[]) {
  const allowed = new Set(allowOrigins.map(normalOrigin).filter((o): o is string => o !== null));
  const originOf = (headers: IncomingHttpHeaders) => (typeof headers.origin === 'string' && allowed.has(headers.origin) ? headers.origin : null);

  /** The CORS headers of an answer to this request (empty when its origin is not allowed). */
  function answerHeaders(headers: IncomingHttpHeaders): Record<string, string> {
    const origin = originOf(headers);
    return origin ? { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': EXPOSE_HEADERS } : {};
  }

  /** The answer to a CORS preflight, or null when the request is not one. */
  function preflight(method: string | undefined, headers: IncomingHttpHeaders): Preflight | null {
    if (method !== 'OPTIONS' || headers.origin === undefined || headers['access-control-request-method'] === undefined) return null;
    const origin = originOf(headers);
    if (!origin) return { status: 403, headers: { vary: 'Origin' } };
    return {
      status: 204,
      headers: {
        'access-control-allow-origin': origin,
        vary: 'Origin',
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': String(CORS_MAX_AGE_S),
        ...(headers['access-control-request-private-network'] === 'true' ? { 'access-control-allow-private-network': 'true' } : {}),
      },
    };
  }

  return { answerHeaders, preflight, allowed };
}

export type Cors = ReturnType<typeof createCors>;
