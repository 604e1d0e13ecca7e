/**
 * Ports browsers refuse to fetch from, whatever listens there: the Fetch Standard's "bad ports"
 * (port blocking, https://fetch.spec.whatwg.org/#port-blocking), which Chromium ("restricted ports"),
 * Firefox and Safari all follow. They belong to protocols an HTTP request could be used to talk to
 * (mail, IRC, SSH, …). The one list the app checks an endpoint against, before any request: a
 * refused port fails exactly like a server that is not running, and "is the server running?" would
 * send the user the wrong way.
 */
import { quote } from '../text/quote';

export const BLOCKED_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The port of an http(s) address when the browser would refuse it; null when it is allowed or the address does not parse. */
export function blockedPort(url: string): number | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  // `URL` drops a scheme's default port (80, 443): neither is blocked.
  const port = parsed.port === '' ? null : Number(parsed.port);
  return port !== null && BLOCKED_PORTS.has(port) ? port : null;
}

/** What to tell the user about a refused port, e.g. for http://localhost:9/v1. */
export function blockedPortText(url: string, port: number): string {
  return (
    `The browser refuses to connect to port ${port} (it blocks this port for safety), so ${quote(url.trim(), 120)} cannot be reached from this ` +
    `page. Use another port, e.g. 11434 (Ollama's default).`
  );
}
