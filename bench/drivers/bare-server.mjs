// The baseline of bench:serve: a bare node:http server that reads the request body and answers
// the bytes it was given (a /v1/select answer of toolmem serve, with its headers) — what node:http
// itself costs per request on this machine. Run as a process: `node bare-server.mjs <answer-file>`;
// it prints `listening PORT`.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const { body, memory } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const bytes = Buffer.from(body, 'utf8');
const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, {
      'x-toolmem-memory': memory,
      'content-type': 'application/json; charset=utf-8',
      'content-length': bytes.length,
      'cache-control': 'no-store',
    });
    res.end(bytes);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
