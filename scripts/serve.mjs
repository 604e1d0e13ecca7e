#!/usr/bin/env node
// Serves the production build (dist/) on localhost: what `npm start` and the e2e tests use.
// Plain Node, no dependencies. Cross-origin isolation headers let WASM use threads.
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const dirArg = args.indexOf('--dir');
const root = resolve(dirArg >= 0 ? args[dirArg + 1] : fileURLToPath(new URL('../dist', import.meta.url)));
const portArg = args.indexOf('--port');
const port = Number(portArg >= 0 ? args[portArg + 1] : (process.env.PORT ?? 4173));
const host = process.env.HOST ?? '127.0.0.1';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.csv': 'text/csv; charset=utf-8',
  '.jsonl': 'application/x-ndjson; charset=utf-8',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
  '.gguf': 'application/octet-stream',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

if (!existsSync(join(root, 'index.html'))) {
  console.error('dist/index.html is missing: run `npm run build` first (npm start does both).');
  process.exit(1);
}

// The static part of the Content-Security-Policy (same as the <meta> in index.html), plus what only a
// header can say (frame-ancestors). Sent with the HTML document; the page narrows connect-src at boot
// (src/ui/csp.ts). Worker scripts are first-party modules that render nothing: they get no policy of
// their own, so model libraries can fetch their weights (see docs/reliability.md).
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' blob: data:; connect-src 'self' blob: data: http: https:; object-src 'none'; base-uri 'self'; form-action 'none'; frame-ancestors 'none'";

// The app shell's text (HTML, scripts, styles) is sent gzip-compressed when the browser accepts it,
// as any production host does: the scripts shrink to about a third. Compressed once per file version
// and kept in memory. Data and model files go as they are (their loaders read Content-Length as the
// size of what they receive).
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.webmanifest', '.svg', '.map']);
const gzipped = new Map();
function gzipOf(path, mtimeMs) {
  const hit = gzipped.get(path);
  if (hit && hit.mtimeMs === mtimeMs) return hit.body;
  const body = gzipSync(readFileSync(path), { level: 6 });
  gzipped.set(path, { mtimeMs, body });
  return body;
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  let path = normalize(join(root, decodeURIComponent(url.pathname)));
  if (path !== root && !path.startsWith(root + sep)) {
    res.writeHead(403).end('Forbidden');
    return;
  }
  if (!existsSync(path) || statSync(path).isDirectory()) path = join(root, 'index.html');
  const type = TYPES[extname(path)] ?? 'application/octet-stream';
  const stat = statSync(path);
  const gzip = COMPRESSIBLE.has(extname(path)) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? gzipOf(path, stat.mtimeMs) : null;
  const headers = {
    'Content-Type': type,
    'Content-Length': body ? body.length : stat.size,
    ...(COMPRESSIBLE.has(extname(path)) ? { Vary: 'Accept-Encoding' } : {}),
    ...(body ? { 'Content-Encoding': 'gzip' } : {}),
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    // The service worker and index.html must revalidate so that updates reach users.
    'Cache-Control': /\/assets\//.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  if (type.startsWith('text/html')) headers['Content-Security-Policy'] = CSP;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') res.end();
  else if (body) res.end(body);
  else createReadStream(path).pipe(res);
});

// Port 0: a free port the system picks (the benchmarks use it, so several can run at once); the line names it.
server.listen(port, host, () => {
  console.log(`ToolMem Studio is running at http://${host === '0.0.0.0' ? 'localhost' : host}:${server.address().port}/`);
});
