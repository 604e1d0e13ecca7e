/**
 * The zoom of the image viewers on one view (ImageViewer.svelte): fit (the image fills the free
 * space, upscaled when small) → 100% (one image pixel per CSS pixel) → 200%, and a pan offset.
 * One state per view, shared by its viewers: the two sides of a pair zoom and pan together, so the
 * same detail is compared. The view's key handler asks `key(e)` first; it answers true when the
 * key was the viewer's (`z`, Escape while zoomed, arrows while zoomed), so the view's own shortcuts
 * (arrows: next item, left/right is better) do not also act on it.
 */
export type ZoomLevel = 'fit' | 1 | 2;

const NEXT: Record<string, ZoomLevel> = { fit: 1, '1': 2, '2': 'fit' };
/** CSS pixels one arrow press pans. */
export const PAN_STEP = 80;

export class ImageZoom {
  #level = $state<ZoomLevel>('fit');
  /** Pan offset from the centred position, in CSS pixels (the viewer clamps it to the image). */
  #panX = $state(0);
  #panY = $state(0);
  // Read from outside through getters; changed only by this class's methods.
  get level() {
    return this.#level;
  }
  get panX() {
    return this.#panX;
  }
  get panY() {
    return this.#panY;
  }

  get zoomed(): boolean {
    return this.#level !== 'fit';
  }

  cycle(): void {
    this.#level = NEXT[String(this.#level)] ?? 'fit';
    this.#panX = this.#panY = 0;
  }

  reset(): void {
    this.#level = 'fit';
    this.#panX = this.#panY = 0;
  }

  pan(dx: number, dy: number): void {
    this.#panX += dx;
    this.#panY += dy;
  }

  /** Handles `z`, and Escape / arrows while zoomed; true when the key was the viewer's. */
  key(key: string): boolean {
    if (key === 'z' || key === 'Z') {
      this.cycle();
      return true;
    }
    if (!this.zoomed) return false;
    if (key === 'Escape') this.reset();
    else if (key === 'ArrowLeft') this.pan(-PAN_STEP, 0);
    else if (key === 'ArrowRight') this.pan(PAN_STEP, 0);
    else if (key === 'ArrowUp') this.pan(0, -PAN_STEP);
    else if (key === 'ArrowDown') this.pan(0, PAN_STEP);
    else return false;
    return true;
  }
}
