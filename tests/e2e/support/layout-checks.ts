import type { Locator, Page } from '@playwright/test';

/**
 * Checks a person notices on a phone or with a screen reader, run in the page: form fields without a
 * visible label, words broken inside, and content that sticks out sideways.
 */

/**
 * Visible form fields (input, select, textarea; file inputs, which are hidden behind their label,
 * too) that have no accessible name or no visible label: a `<label>` for it that shows text, or an
 * `aria-labelledby` pointing at shown text. A placeholder or an `aria-label` alone is not a visible
 * label. One line per field: its tag, type and name (or placeholder).
 */
export function fieldsWithoutVisibleLabel(scope: Page | Locator): Promise<string[]> {
  const root = 'page' in scope ? scope : scope.locator(':root');
  return root.evaluate((start: Element | Document) => {
    const el0 = start instanceof Document ? start.body : start;
    const shown = (el: Element): boolean => {
      // checkVisibility: also false inside a closed <details> (content-visibility), where boxes still have a size.
      if (!el.checkVisibility({ contentVisibilityAuto: true, opacityProperty: false, visibilityProperty: true })) return false;
      const r = el.getBoundingClientRect();
      // Visually hidden (sr-only): 1 px and clipped.
      if (r.width <= 1 || r.height <= 1) return false;
      return !el.closest('[hidden], [aria-hidden="true"]') && el.getClientRects().length > 0;
    };
    /** The text a label shows, without the text of the fields inside it (a select's options). */
    const ownText = (label: Element): string => {
      const copy = label.cloneNode(true) as Element;
      copy.querySelectorAll('select, textarea, option, input').forEach((n) => n.remove());
      return (copy.textContent ?? '').trim();
    };
    const fields = [...el0.querySelectorAll('input, select, textarea')].filter((f) => {
      const type = (f.getAttribute('type') ?? '').toLowerCase();
      if (type === 'hidden') return false;
      if (type === 'file') return [...((f as HTMLInputElement).labels ?? [])].some(shown) || shown(f);
      return shown(f);
    });
    const out: string[] = [];
    for (const f of fields) {
      const name = f.getAttribute('aria-label') ?? f.getAttribute('name') ?? f.getAttribute('placeholder') ?? f.id;
      const what = `${f.tagName.toLowerCase()}${f.getAttribute('type') ? `[${f.getAttribute('type')}]` : ''} "${name}"`;
      const labels = [...((f as HTMLInputElement).labels ?? [])].filter((l) => shown(l) && ownText(l) !== '');
      const by = (f.getAttribute('aria-labelledby') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => document.getElementById(id))
        .filter((e): e is HTMLElement => !!e && shown(e) && (e.textContent ?? '').trim() !== '');
      if (!labels.length && !by.length) out.push(`${what}: no visible label`);
      const hasName =
        !!f.getAttribute('aria-label')?.trim() ||
        labels.length > 0 ||
        by.length > 0 ||
        [...((f as HTMLInputElement).labels ?? [])].some((l) => ownText(l) !== '');
      if (!hasName) out.push(`${what}: no accessible name`);
    }
    return out;
  });
}

/**
 * Words (runs of non-space characters) that the layout broke across lines anywhere but right
 * after a hyphen, inside `scope`: "DALL|E_3", "chatt|y-mod|el". One line per word, with the pieces.
 */
export function brokenWords(scope: Locator): Promise<string[]> {
  return scope.evaluate((start: Element) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(start, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const parent = node.parentElement;
      if (!parent || parent.closest('.sr-only, [aria-hidden="true"], script, style, option, select, textarea')) continue;
      if (!parent.getClientRects().length) continue;
      const text = node.data;
      for (const m of text.matchAll(/\S+/g)) {
        if (m[0].length < 2) continue;
        let lastTop: number | null = null;
        const pieces: string[] = [];
        let piece = '';
        for (let i = m.index!; i < m.index! + m[0].length; i++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect) continue;
          if (lastTop !== null && rect.top > lastTop + 2) {
            if (!/[-‐–]$/.test(piece)) pieces.push(`${piece}|`);
            else pieces.push(piece);
            piece = '';
          }
          lastTop = rect.top;
          piece += text[i];
        }
        if (pieces.some((p) => p.endsWith('|'))) out.push([...pieces, piece].join(''));
        if (out.length >= 20) return out;
      }
    }
    return out;
  });
}

/** How far the document scrolls sideways (0 when it does not). */
export function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() =>
    Math.max(
      0,
      document.documentElement.scrollWidth - window.innerWidth,
      document.querySelector('main')!.scrollWidth - document.querySelector('main')!.clientWidth,
    ),
  );
}
