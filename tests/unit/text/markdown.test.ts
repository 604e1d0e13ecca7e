import { describe, expect, it } from 'vitest';
import { markdownToHtml as html } from '../../../src/core/text/markdown-html';
import { MARKDOWN_MAX_CHARS, parseMarkdown, shiftHeadings } from '../../../src/core/text/markdown';
import { safeHref } from '../../../src/core/text/markdown-inline';

const A = 'rel="noopener noreferrer nofollow" target="_blank"';

describe('markdown blocks', () => {
  it.each<[string, [string, string][]]>([
    ['paragraphs split on blank lines; single line breaks are kept', [['One\ntwo\n\nThree', '<p>One<br>two</p><p>Three</p>']]],
    [
      'ATX and setext headings',
      [
        ['# Title #\n## Sub\nText\n===\n\nMore\n---', '<h1>Title</h1><h2>Sub</h2><h1>Text</h1><h2>More</h2>'],
        ['#hashtag', '<p>#hashtag</p>'],
      ],
    ],
    [
      'fenced code keeps its text verbatim, escaped, with the language',
      [
        ['```js\nif (a < b) **x**\n  <b>\n```', '<pre><code data-lang="js">if (a &#60; b) **x**\n  &#60;b&#62;</code></pre>'],
        ['~~~\nopen to the end', '<pre><code>open to the end</code></pre>'],
      ],
    ],
    [
      'tight and loose bullet lists, nested lists, ordered lists with a start',
      [
        ['* a\n* **b**\n    - c\n    - d\n* e', '<ul><li>a</li><li><strong>b</strong><ul><li>c</li><li>d</li></ul></li><li>e</li></ul>'],
        ['- a\n\n- b', '<ul><li><p>a</p></li><li><p>b</p></li></ul>'],
        ['3. three\n4. four', '<ol start="3"><li>three</li><li>four</li></ol>'],
        ['1) x\n- y', '<ol><li>x</li></ol><ul><li>y</li></ul>'],
      ],
    ],
    [
      'a list item continues lazily; a year with a dot does not start a list mid-paragraph',
      [
        ['- item\ncontinued', '<ul><li>item<br>continued</li></ul>'],
        ['Founded in\n2024. Then', '<p>Founded in<br>2024. Then</p>'],
      ],
    ],
    ['block quotes and rules', [['> quoted\n> **line**\n\n---\n\n* * *', '<blockquote><p>quoted<br><strong>line</strong></p></blockquote><hr><hr>']]],
  ])('%s', (_title, pairs) => {
    for (const [md, out] of pairs) expect(html(md), md).toBe(out);
  });

  it('GFM tables with alignment, short rows padded', () => {
    expect(html('| Tool | Score |\n|:-----|------:|\n| a | 1 |\n| b |')).toBe(
      '<table><thead><tr><th style="text-align:left">Tool</th><th style="text-align:right">Score</th></tr></thead>' +
        '<tbody><tr><td style="text-align:left">a</td><td style="text-align:right">1</td></tr><tr><td style="text-align:left">b</td><td style="text-align:right"></td></tr></tbody></table>',
    );
    expect(html('a | b\n--|--\n`x\\|y` | z')).toBe(
      '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td><code>x|y</code></td><td>z</td></tr></tbody></table>',
    );
    // Header and delimiter row disagree on the column count: not a table.
    expect(html('a | b\n--|--|--')).toBe('<p>a | b<br>--|--|--</p>');
  });
});

describe('markdown inline', () => {
  it.each<[string, [string, string][]]>([
    [
      'emphasis, strong, both, strike, code spans',
      [
        ['*a* **b** ***c*** ~~d~~ `e *f*`', '<p><em>a</em> <strong>b</strong> <em><strong>c</strong></em> <del>d</del> <code>e *f*</code></p>'],
        ['**a *b* c**', '<p><strong>a <em>b</em> c</strong></p>'],
      ],
    ],
    [
      'no emphasis inside words with _, or around spaced stars',
      [
        ['snake_case_name and 2 * 3 * 4', '<p>snake_case_name and 2 * 3 * 4</p>'],
        ['**unclosed and *half', '<p>**unclosed and *half</p>'],
      ],
    ],
    ['backslash escapes and hard breaks', [['\\*not em\\* a\\\nb', '<p>*not em* a<br>b</p>']]],
  ])('%s', (_title, pairs) => {
    for (const [md, out] of pairs) expect(html(md), md).toBe(out);
  });

  it('http(s) links get rel and target; bare and angle URLs become links', () => {
    expect(html('[docs](https://example.com/a_(b) "T")')).toBe(`<p><a href="https://example.com/a_(b)" ${A}>docs</a></p>`);
    expect(html('see https://example.com/x. or <http://a.org>')).toBe(
      `<p>see <a href="https://example.com/x" ${A}>https://example.com/x</a>. or <a href="http://a.org/" ${A}>http://a.org</a></p>`,
    );
    expect(html('[**bold** link](https://x.org)')).toBe(`<p><a href="https://x.org/" ${A}><strong>bold</strong> link</a></p>`);
  });
});

describe('hostile input comes out as text', () => {
  it.each<[string, [string, string][]]>([
    [
      'raw HTML is escaped, never an element',
      [
        ['<script>alert(1)</script>', '<p>&#60;script&#62;alert(1)&#60;/script&#62;</p>'],
        ['<img src=x onerror=alert(1)>', '<p>&#60;img src=x onerror=alert(1)&#62;</p>'],
        ['**<b onclick="x()">hi</b>**', '<p><strong>&#60;b onclick=&#34;x()&#34;&#62;hi&#60;/b&#62;</strong></p>'],
      ],
    ],
    ['images are not loaded: their syntax is text', [['![cat](https://evil.example/track.png)', '<p>![cat](https://evil.example/track.png)</p>']]],
    [
      'quotes in a link address cannot break out of the attribute',
      [['[a](https://x.org/"onmouseover="alert(1))', `<p><a href="https://x.org/%22onmouseover=%22alert(1)" ${A}>a</a></p>`]],
    ],
    ['a code fence language cannot inject an attribute', [['```"><script>\nx\n```', '<pre><code data-lang="&#34;&#62;&#60;script&#62;">x</code></pre>']]],
  ])('%s', (_title, pairs) => {
    for (const [md, out] of pairs) expect(html(md), md).toBe(out);
  });

  it('links other than http(s) stay as written', () => {
    expect(html('[click](javascript:alert(1))')).toBe('<p>[click](javascript:alert(1))</p>');
    expect(html('[x](JaVaScRiPt:alert(1)) [y](data:text/html,<b>) [z](/relative) [w](java\\\tscript:a)')).toBe(
      '<p>[x](JaVaScRiPt:alert(1)) [y](data:text/html,&#60;b&#62;) [z](/relative) [w](java\\\tscript:a)</p>',
    );
    expect(html('<javascript:alert(1)>')).toBe('<p>&#60;javascript:alert(1)&#62;</p>');
  });
  it('deep nesting and long unmatched runs finish fast and stay bounded', () => {
    const nested = `${'> '.repeat(500)}deep`;
    expect(html(nested)).toContain('deep');
    const stars = `${'*a '.repeat(20_000)}${'b* '.repeat(20_000)}`;
    const t0 = performance.now();
    const out = html(stars);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect((out.match(/<em>/g) ?? []).length).toBeLessThanOrEqual(16);
    const brackets = '['.repeat(50_000) + '`'.repeat(3) + 'x`'.repeat(20_000);
    const t1 = performance.now();
    html(brackets);
    expect(performance.now() - t1).toBeLessThan(3000);
  });
  it('a text over the size limit is not parsed', () => {
    expect(parseMarkdown('a'.repeat(MARKDOWN_MAX_CHARS + 1))).toBeNull();
    expect(html(`<b>${'a'.repeat(MARKDOWN_MAX_CHARS)}`).startsWith('<pre>&#60;b&#62;aaa')).toBe(true);
  });
});

describe('safeHref', () => {
  it('accepts absolute http(s) only', () => {
    expect(safeHref('https://a.org/x?y=1')).toBe('https://a.org/x?y=1');
    expect(safeHref(' HTTP://A.org ')).toBe('http://a.org/');
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '//evil.org', '/x', 'mailto:a@b.c', 'https://', 'https://a.org/\u0000x', 'vbscript:x']) {
      expect(safeHref(bad), bad).toBeNull();
    }
  });
});

describe('shiftHeadings', () => {
  it('renumbers levels by rank from the given top, closing gaps and capping at 6', () => {
    const tree = shiftHeadings(parseMarkdown('## a\n#### b\n> # c\n- ###### d')!, 4);
    const levels: number[] = [];
    const walk = (bs: typeof tree) =>
      bs.forEach((b) => (b.type === 'heading' ? levels.push(b.level) : b.type === 'quote' ? walk(b.children) : b.type === 'list' ? b.items.forEach(walk) : 0));
    walk(tree);
    expect(levels).toEqual([5, 6, 4, 6]);
  });
});
