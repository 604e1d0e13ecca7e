/**
 * ARIA widgets whose own keys are the arrows (and letters, for type-ahead): a focused element inside
 * one of them keeps its keys. Buttons in a plain `group` or `toolbar` do not take arrows here.
 */
const ARROW_WIDGETS = ['radiogroup', 'listbox', 'slider', 'spinbutton', 'combobox', 'menu', 'menubar', 'tree', 'treegrid', 'grid']
  .map((r) => `[role="${r}"]`)
  .join(',');

/**
 * True when `target` is a form control that takes keys itself: an input, a text area, a select
 * (arrows change its value), editable text, or an element inside an ARIA widget that moves with
 * arrows. Single-key shortcuts must leave such a key alone, and the control keeps its focus.
 */
export function inFormControl(target: EventTarget | null): boolean {
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLElement && (target.isContentEditable || target.closest(ARROW_WIDGETS) !== null);
}

/** True when a key press belongs to a form control (`inFormControl`), so single-key shortcuts must not fire. */
export function isTyping(e: KeyboardEvent): boolean {
  return inFormControl(e.target);
}

/**
 * The key a labelling page's single-key shortcuts act on, or null to leave the press alone: with a
 * modifier it is the browser's; pressed in a form control it is the control's (an arrow on the
 * Dataset select changes the dataset and labels nothing; Escape leaves the control, so the
 * shortcuts work again at once); with no images to judge, only `?` (the shortcuts help) works.
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
