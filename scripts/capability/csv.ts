/** Shared by the capability scripts (not the app: the app's CSV reader is src/core/import). */

/** Minimal RFC 4180 reader: quoted fields may hold commas, quotes ("") and newlines. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\n') {
      endField();
      rows.push(row);
      row = [];
    } else if (ch !== '\r') field += ch;
  }
  if (field || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}
