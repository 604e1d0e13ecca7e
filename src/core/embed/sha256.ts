/**
 * SHA-256 of a text via Web Crypto (`globalThis.crypto.subtle`: browsers, workers and Node 20).
 * Not node:crypto, so src/core stays runnable in the browser. Note: `crypto.subtle` exists only in
 * secure contexts (https or localhost), which a PWA is anyway.
 */
const encoder = new TextEncoder();

export async function sha256Hex(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('Web Crypto (crypto.subtle) is not available in this context');
  const digest = new Uint8Array(await subtle.digest('SHA-256', encoder.encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
