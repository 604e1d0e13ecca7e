/**
 * SHA-256 of a text (UTF-8), as lower-case hex: the embedding cache's key for a text.
 *
 * Computed synchronously in plain JS over one reused buffer rather than with
 * `crypto.subtle.digest`: the cache hashes every text of a call before looking anything up, and
 * Web Crypto costs one promise, one copy and one thread hop per text — for 4,000 short prompts in a
 * Chromium worker that was slower than running the model. Here a prompt is one or two 64-byte blocks
 * (~1 µs). The digest is the standard one (FIPS 180-4), so keys written before stay valid.
 * No node:crypto, so src/core stays runnable in the browser.
 */
const encoder = new TextEncoder();

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

const W = new Int32Array(64);
const H = new Int32Array(8);
/** Reused across calls (grown on demand); hashing is synchronous, so no call sees another's bytes. */
let buf = new Uint8Array(1024);
let view = new DataView(buf.buffer);

function compress(offset: number): void {
  for (let t = 0; t < 16; t++) W[t] = view.getInt32(offset + t * 4);
  for (let t = 16; t < 64; t++) {
    const w15 = W[t - 15]!;
    const w2 = W[t - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[t] = (W[t - 16]! + s0 + W[t - 7]! + s1) | 0;
  }
  let a = H[0]!,
    b = H[1]!,
    c = H[2]!,
    d = H[3]!,
    e = H[4]!,
    f = H[5]!,
    g = H[6]!,
    h = H[7]!;
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t]! + W[t]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] = (H[0]! + a) | 0;
  H[1] = (H[1]! + b) | 0;
  H[2] = (H[2]! + c) | 0;
  H[3] = (H[3]! + d) | 0;
  H[4] = (H[4]! + e) | 0;
  H[5] = (H[5]! + f) | 0;
  H[6] = (H[6]! + g) | 0;
  H[7] = (H[7]! + h) | 0;
}

/** SHA-256 of `text`'s UTF-8 bytes, synchronously. */
export function sha256HexSync(text: string): string {
  // UTF-8 takes at most 3 bytes per UTF-16 unit; + 1 for the 0x80 marker, + 8 for the bit length, rounded up to a block.
  const need = (Math.ceil((text.length * 3 + 9) / 64) * 64) | 0;
  if (need > buf.length) {
    buf = new Uint8Array(Math.max(need, buf.length * 2));
    view = new DataView(buf.buffer);
  }
  const n = encoder.encodeInto(text, buf).written;
  const blocks = Math.ceil((n + 9) / 64);
  const end = blocks * 64;
  buf[n] = 0x80;
  buf.fill(0, n + 1, end - 8);
  // Bit length as a 64-bit big-endian integer (texts here are far below 2^53 bits).
  const bits = n * 8;
  view.setUint32(end - 8, Math.floor(bits / 0x100000000));
  view.setUint32(end - 4, bits >>> 0);
  H.set(H0);
  for (let off = 0; off < end; off += 64) compress(off);
  let hex = '';
  for (let i = 0; i < 8; i++) {
    const x = H[i]!;
    hex += HEX[(x >>> 24) & 0xff]! + HEX[(x >>> 16) & 0xff]! + HEX[(x >>> 8) & 0xff]! + HEX[x & 0xff]!;
  }
  return hex;
}

/** Async form kept for callers that await it; same digest. */
export async function sha256Hex(text: string): Promise<string> {
  return sha256HexSync(text);
}
