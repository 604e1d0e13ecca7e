/**
 * Incremental Server-Sent Events parser (the subset chat-completions streams use): events are
 * separated by a blank line; `data:` lines of one event are joined with "\n"; comments (`:`) and
 * other fields are ignored. Handles CR, LF and CRLF line ends split anywhere across chunks.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private pendingCr = false;

  /** Feeds decoded text; returns the `data` payloads of the events completed by it. */
  push(chunk: string): string[] {
    const out: string[] = [];
    let text = chunk;
    // A CR at the end of the previous chunk may be the first half of a CRLF.
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      this.line(this.buffer.slice(start, i), out);
      if (c === '\r') {
        if (i + 1 < this.buffer.length) {
          if (this.buffer[i + 1] === '\n') i++;
        } else {
          this.pendingCr = true;
        }
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** Ends the stream: a final event without its blank line still counts. */
  end(): string[] {
    const out: string[] = [];
    if (this.buffer !== '') this.line(this.buffer, out);
    this.buffer = '';
    if (this.data.length > 0) out.push(this.data.join('\n'));
    this.data = [];
    return out;
  }

  private line(line: string, out: string[]): void {
    if (line === '') {
      if (this.data.length > 0) out.push(this.data.join('\n'));
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.data.push(value);
  }
}
