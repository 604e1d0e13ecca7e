/**
 * Line endings of a CSV stream made uniform before Papa Parse sees them: outside quoted fields,
 * CRLF, LF and a lone CR each end a record and all become LF; inside quoted fields every character
 * is data and is kept as it is.
 *
 * Why: Papa Parse takes one `newline` for the whole file. A file with mixed endings (a CR-only line
 * among LF lines, as left by some editors and by concatenating files) otherwise has records merged
 * into one over-long row that is rejected, silently losing good rows.
 *
 * Quote rules follow Papa Parse: a quote opens a quoted field only at the start of a field; inside
 * one, `""` is a literal quote and a quote ends the field when followed (after optional spaces) by
 * the delimiter or a line break; any other quote is literal (Papa is lenient). Strings are searched
 * with indexOf, so the cost is per quote and per CR, not per character.
 */

const enum Q {
  Outside,
  Quoted,
  /** Saw a quote inside a quoted field; the next character decides. */
  AfterQuote,
  /** Spaces after such a quote; a delimiter or line break next closes the field. */
  AfterQuoteSpace,
}

export class CsvNewlines {
  private state = Q.Outside;
  /** The chunk before ended in a CR that was emitted as LF: a leading LF is its second half. */
  private dropLf = false;
  /** Last character of the previous chunk (a line start at the beginning of the file). */
  private last = '\n';

  constructor(private readonly delimiter: string) {}

  private fieldStart(ch: string): boolean {
    return ch === this.delimiter || ch === '\n' || ch === '\r';
  }

  push(chunk: string): string {
    if (chunk.length === 0) return chunk;
    const out: string[] = [];
    let from = 0;
    let i = 0;
    const n = chunk.length;
    if (this.dropLf) {
      this.dropLf = false;
      if (chunk.charCodeAt(0) === 0x0a) from = i = 1;
    }
    // A CR outside quotes at `r`: CRLF → LF (drop the CR), lone CR → LF, CR at the end → LF and drop a following LF.
    const lineEnd = (r: number): void => {
      out.push(chunk.slice(from, r));
      if (r + 1 < n && chunk.charCodeAt(r + 1) === 0x0a) from = r + 1;
      else {
        out.push('\n');
        from = r + 1;
        if (r + 1 === n) this.dropLf = true;
      }
    };
    let nextQuote = -2;
    let nextCr = -2;
    while (i < n) {
      if (this.state === Q.Quoted) {
        const q = chunk.indexOf('"', i);
        if (q === -1) break;
        i = q + 1;
        this.state = Q.AfterQuote;
        continue;
      }
      if (this.state === Q.AfterQuote || this.state === Q.AfterQuoteSpace) {
        const c = chunk[i] as string;
        if (c === '"' && this.state === Q.AfterQuote) {
          this.state = Q.Quoted;
          i += 1;
        } else if (c === ' ' || c === '\t') {
          this.state = Q.AfterQuoteSpace;
          i += 1;
        } else if (c === this.delimiter || c === '\n') {
          this.state = Q.Outside;
          i += 1;
        } else if (c === '\r') {
          this.state = Q.Outside;
          lineEnd(i);
          i += 1;
        } else {
          // A literal quote: still inside the quoted field (this character is data).
          this.state = Q.Quoted;
        }
        continue;
      }
      // Outside quotes: only quotes (which may open a field) and CRs matter.
      if (nextQuote < i && nextQuote !== -1) nextQuote = chunk.indexOf('"', i);
      if (nextCr < i && nextCr !== -1) nextCr = chunk.indexOf('\r', i);
      const q = nextQuote === -1 ? n : nextQuote;
      const r = nextCr === -1 ? n : nextCr;
      if (q === n && r === n) break;
      if (r < q) {
        lineEnd(r);
        i = r + 1;
        continue;
      }
      const before = q > 0 ? (chunk[q - 1] as string) : this.last;
      if (this.fieldStart(before)) this.state = Q.Quoted;
      i = q + 1;
    }
    this.last = chunk[n - 1] as string;
    if (from === 0) return chunk;
    out.push(chunk.slice(from));
    return out.join('');
  }
}
