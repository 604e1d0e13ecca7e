/**
 * The Markdown tree (markdown.ts) as HTML text: every piece of text is escaped and only the
 * whitelisted elements are written, so the output is safe to store or show anywhere. It is the
 * readable form the unit tests compare against; the app renders the same tree as DOM nodes
 * (Markdown.svelte) with the same elements and attributes.
 */
import { parseMarkdown, type Block, type Inline } from './markdown';

/** Attributes of every link: opened apart from the app, with no referrer and no window handle. */
export const LINK_REL = 'noopener noreferrer nofollow';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function inline(nodes: Inline[]): string {
  return nodes
    .map((n) => {
      switch (n.type) {
        case 'text':
          return escapeHtml(n.text);
        case 'code':
          return `<code>${escapeHtml(n.text)}</code>`;
        case 'br':
          return '<br>';
        case 'link':
          return `<a href="${escapeHtml(n.href)}" rel="${LINK_REL}" target="_blank">${inline(n.children)}</a>`;
        default:
          return `<${n.type}>${inline(n.children)}</${n.type}>`;
      }
    })
    .join('');
}

function cell(tag: 'th' | 'td', nodes: Inline[], align: string | null): string {
  return `<${tag}${align ? ` style="text-align:${align}"` : ''}>${inline(nodes)}</${tag}>`;
}

function blocks(list: Block[], tight = false): string {
  return list
    .map((b) => {
      switch (b.type) {
        case 'paragraph':
          return tight ? inline(b.children) : `<p>${inline(b.children)}</p>`;
        case 'heading':
          return `<h${b.level}>${inline(b.children)}</h${b.level}>`;
        case 'code':
          return `<pre><code${b.lang ? ` data-lang="${escapeHtml(b.lang)}"` : ''}>${escapeHtml(b.text)}</code></pre>`;
        case 'rule':
          return '<hr>';
        case 'quote':
          return `<blockquote>${blocks(b.children)}</blockquote>`;
        case 'list': {
          const tag = b.ordered ? 'ol' : 'ul';
          const start = b.ordered && b.start !== 1 ? ` start="${b.start}"` : '';
          return `<${tag}${start}>${b.items.map((it) => `<li>${blocks(it, b.tight)}</li>`).join('')}</${tag}>`;
        }
        case 'table': {
          const head = `<tr>${b.head.map((c, k) => cell('th', c, b.align[k] ?? null)).join('')}</tr>`;
          const rows = b.rows.map((r) => `<tr>${r.map((c, k) => cell('td', c, b.align[k] ?? null)).join('')}</tr>`).join('');
          return `<table><thead>${head}</thead>${rows ? `<tbody>${rows}</tbody>` : ''}</table>`;
        }
      }
    })
    .join('');
}

/** Safe HTML for a Markdown text; a text too long to parse comes back escaped in one <pre>. */
export function markdownToHtml(source: string): string {
  const tree = parseMarkdown(source);
  return tree ? blocks(tree) : `<pre>${escapeHtml(source)}</pre>`;
}
