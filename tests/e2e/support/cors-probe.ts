/**
 * A page on another origin that calls `toolmem serve` from the browser (issue #35, CORS): a static
 * server on 127.0.0.1 with its own port serves one page whose button POSTs a task to the server's
 * /v1/select with a bearer token — a request the browser preflights (Authorization, JSON) — and
 * shows the status, the choice and the memory version header it could read, or the error when the
 * browser blocked the call. The page object drives it by role.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Locator, type Page } from '@playwright/test';

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>CORS probe</title></head>
<body>
<main>
  <h1>Another origin</h1>
  <button type="button" id="ask">Ask the server</button>
  <output id="result" aria-label="Result" aria-live="polite">not asked</output>
</main>
<script>
  const params = new URLSearchParams(location.search);
  document.getElementById('ask').addEventListener('click', async () => {
    const out = document.getElementById('result');
    out.textContent = 'asking';
    try {
      const res = await fetch(params.get('server') + '/v1/select', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + params.get('token'), 'content-type': 'application/json' },
        body: JSON.stringify({ task: 'A cat wearing a red hat', candidates: ['DALLE_3', 'SDXL_Turbo'] }),
      });
      const body = await res.json();
      out.textContent = res.status + ' ' + body.choice + ' memory ' + res.headers.get('x-toolmem-memory');
    } catch (err) {
      out.textContent = 'blocked: ' + err.name;
    }
  });
</script>
</body></html>`;

/** Serves the probe page on 127.0.0.1 (a port of its own: its own origin). */
export async function startProbeSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export class CorsProbePage {
  constructor(readonly page: Page) {}

  async open(origin: string, server: string, token: string): Promise<void> {
    await this.page.goto(`${origin}/?${new URLSearchParams({ server, token })}`);
    await expect(this.page.getByRole('heading', { name: 'Another origin' })).toBeVisible();
  }

  get result(): Locator {
    return this.page.getByRole('status', { name: 'Result' });
  }

  /** Clicks "Ask the server" and waits for the page's answer line. */
  async ask(): Promise<string> {
    await this.page.getByRole('button', { name: 'Ask the server' }).click();
    await expect(this.result).not.toHaveText(/^(not asked|asking)$/);
    return (await this.result.textContent()) ?? '';
  }
}
