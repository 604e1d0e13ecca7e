/** The one CSV cell writer: RFC 4180 quoting and OWASP formula neutralisation, with hand-written goldens. */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvCell, needsFormulaMark, toCsv, unmarkCsvCell } from '../../../src/core/export/csv-cell';

describe('csvCell', () => {
  it.each([
    // Every OWASP trigger as the first character: a leading ' and quotes.
    ['=1+1', `"'=1+1"`],
    ['+1+1', `"'+1+1"`],
    ['-1+1', `"'-1+1"`],
    ['@SUM(A1:A2)', `"'@SUM(A1:A2)"`],
    ['\t=1+1', `"'\t=1+1"`],
    ['\rcmd', `"'\rcmd"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ["=cmd|' /C calc'!A0", `"'=cmd|' /C calc'!A0"`],
    // After leading whitespace, and full-width forms (beyond OWASP's list).
    ['  =1+1', `"'  =1+1"`],
    ['\n=1', `"'\n=1"`],
    ['\uFF1D1+1', `"'\uFF1D1+1"`],
    ['\uFF20A1', `"'\uFF20A1"`],
    // A text that already starts with the mark gets one more, so the import can tell them apart.
    ["'=1+1", `"''=1+1"`],
    ["''-x", `"'''-x"`],
    ['-', `"'-"`],
    ['-Infinity', `"'-Infinity"`],
  ])('neutralises %j', (text, golden) => {
    expect(csvCell(text)).toBe(golden);
  });

  it.each([
    // Plain decimal numbers stay numbers (a score of -1 is data, not a formula).
    ['-1', '-1'],
    ['+3', '+3'],
    ['-0.25', '-0.25'],
    ['-.5', '-.5'],
    ['1e-7', '1e-7'],
    ['-2E+3', '-2E+3'],
    // Near misses: a trigger not at the start, a quote before ordinary text, other leading characters.
    ['a=1+1', 'a=1+1'],
    ['1+1', '1+1'],
    ["'hello", "'hello"],
    ["'-1", `"''-1"`],
    ['—dash', '—dash'],
    ['#REF!', '#REF!'],
    ['', ''],
    // RFC 4180 quoting, exactly where Papa.unparse quoted.
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [' padded', '" padded"'],
    ['padded ', '"padded "'],
  ])('leaves %j alone (apart from quoting)', (text, golden) => {
    expect(csvCell(text)).toBe(golden);
  });

  it('writes numbers, booleans and empty values like Papa did', () => {
    expect([-1, 0, 3.5, -1e-7, true, false, null, undefined].map(csvCell)).toEqual(['-1', '0', '3.5', '-1e-7', 'true', 'false', '', '']);
    expect(csvCell(Number.NEGATIVE_INFINITY)).toBe(`"'-Infinity"`);
  });
});

describe('unmarkCsvCell', () => {
  const samples = ['=1+1', '+x', '-1', '-1+1', '@a', '\tx', '\rx', '  =1', "'=1+1", "''=x", "'hello", "'", "'-1", 'plain', '', '-', '\uFF0Dx'];

  it('undoes exactly the mark csvCell adds, through a real CSV parser', () => {
    const csv = toCsv([samples]);
    const [parsed] = Papa.parse<string[]>(csv).data;
    expect(parsed?.map(unmarkCsvCell)).toEqual(samples);
  });

  it('leaves text without a mark alone', () => {
    expect(unmarkCsvCell("'hello")).toBe("'hello");
    expect(unmarkCsvCell("'-1")).toBe("'-1");
    expect(unmarkCsvCell('=1')).toBe('=1');
    expect(needsFormulaMark('-1')).toBe(false);
    expect(needsFormulaMark('-1 ')).toBe(true);
  });
});

describe('toCsv', () => {
  it('joins rows with \\n and no final newline', () => {
    expect(
      toCsv([
        ['tool', 'score'],
        ['=evil', -1],
        ['DALLE_3', 4],
      ]),
    ).toBe(`tool,score\n"'=evil",-1\nDALLE_3,4`);
  });
});
