/** True when a key press belongs to a text field, so single-key shortcuts must not fire. */
export function isTyping(e: KeyboardEvent): boolean {
  const t = e.target;
  return t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || (t instanceof HTMLElement && t.isContentEditable);
}

/**
 * The key a labelling page's single-key shortcuts act on, or null to leave the press alone: with a
 * modifier it is the browser's; typed into a field it is the field's (Escape leaves the field, so
 * the shortcuts work again at once); with no images to judge, only `?` (the shortcuts help) works.
 */
export function labelShortcut(e: KeyboardEvent, noImages: boolean): string | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  if (isTyping(e)) {
    if (e.key === 'Escape' && e.target instanceof HTMLElement) e.target.blur();
    return null;
  }
  return noImages && e.key !== '?' ? null : e.key;
}

/**
 * `labelShortcut`, after the image viewer has had its turn: z, and Escape / arrows while zoomed,
 * pan the image(s) and are consumed here; anything else is returned for the page's own keys.
 */
export function labelKeyAfterZoom(e: KeyboardEvent, noImages: boolean, zoom: { key(k: string): boolean }): string | null {
  const k = labelShortcut(e, noImages);
  if (k === null || !zoom.key(k)) return k;
  e.preventDefault();
  return null;
}
