import type { Tool } from '../core/types';
import { summaryTools, type AppState, type DatasetSummary } from './app-state.svelte';

/** A dataset whose outputs are images: one of its tools makes images (its card says text→image). */
export function isImageDataset(summary: DatasetSummary, tools: readonly Tool[]): boolean {
  return summaryTools(summary).some((id) => tools.some((t) => t.id === id && t.modality === 'text→image'));
}

/** Datasets with outputs to read (no image tool), to offer when an image dataset has no images. */
export function textDatasets(datasets: readonly DatasetSummary[], tools: readonly Tool[]): DatasetSummary[] {
  return datasets.filter((d) => d.total + d.awaitingTotal > 0 && !isImageDataset(d, tools));
}

/**
 * Whether the labelling views may show a dataset's queue: an image dataset with no image attached
 * has nothing to judge, so they show NoImagesNotice instead, until images are attached or the user
 * chooses to score without them (kept in settings: someone may view the pictures elsewhere).
 * Create it while a component initialises (it owns an effect).
 */
export class ImageGate {
  readonly #app: AppState;
  readonly #datasetId: () => string | undefined;
  #images = $state<number | null>(null);
  #skipped = $state.raw<string[] | null>(null);
  summary: DatasetSummary | undefined = $derived.by(() => this.#app.datasets.find((d) => d.dataset.id === this.#datasetId()));
  // The id alone (a string): the summary object is replaced by every live read, the id is not.
  #shownId = $derived(this.summary?.dataset.id);
  imageDataset = $derived.by(() => !!this.summary && isImageDataset(this.summary, this.#app.tools));
  /** `wait`: still counting; `notice`: show NoImagesNotice; `open`: show the queue. */
  state: 'wait' | 'notice' | 'open' = $derived.by(() => {
    if (!this.imageDataset) return 'open';
    if (this.#images === null || this.#skipped === null) return 'wait';
    return this.#images === 0 && !this.#skipped.includes(this.summary!.dataset.id) ? 'notice' : 'open';
  });

  /** Other image datasets with images attached (they have pictures to judge): ids, live. */
  #withImages = $state.raw<string[]>([]);
  // The other image datasets' ids as one string: every live read replaces the summaries, not the ids.
  #otherImageIds = $derived.by(() =>
    this.#app.datasets
      .filter((d) => d.dataset.id !== this.#shownId && isImageDataset(d, this.#app.tools))
      .map((d) => d.dataset.id)
      .join('\u0000'),
  );

  constructor(app: AppState, datasetId: () => string | undefined) {
    this.#app = app;
    this.#datasetId = datasetId;
    $effect(() => {
      const ids = this.#otherImageIds ? this.#otherImageIds.split('\u0000') : [];
      if (!ids.length || this.state !== 'notice') return void (this.#withImages = []);
      return app.store.watch(
        () => Promise.all(ids.map((id) => app.repos.images.countByDataset(id))),
        (counts) => (this.#withImages = ids.filter((_, i) => counts[i]! > 0)),
      );
    });
    $effect(() =>
      app.store.watch(
        () => app.store.get('labelWithoutImages'),
        (ids) => (this.#skipped = ids),
      ),
    );
    // A live count: images attached (by the data worker) open the queue by themselves.
    $effect(() => {
      const id = this.#shownId;
      this.#images = null;
      if (!id || !this.imageDataset) return;
      return app.store.watch(
        () => app.repos.images.countByDataset(id),
        (n) => (this.#images = n),
      );
    });
  }

  /**
   * Datasets to offer instead: those with something to judge — text answers, or images attached —
   * outputs awaiting labels first (issue #38: the one dataset with pictures awaiting labels was
   * not offered, only text datasets were).
   */
  get alternatives(): DatasetSummary[] {
    const shown = this.#shownId;
    const text = textDatasets(this.#app.datasets, this.#app.tools).filter((d) => d.dataset.id !== shown);
    const images = this.#app.datasets.filter((d) => this.#withImages.includes(d.dataset.id));
    return [...text, ...images].sort((a, b) => b.awaitingTotal - a.awaitingTotal);
  }

  async scoreWithout(): Promise<void> {
    const id = this.summary?.dataset.id;
    if (!id) return;
    const ids = await this.#app.store.get('labelWithoutImages');
    const next = ids.includes(id) ? ids : [...ids, id];
    await this.#app.store.set('labelWithoutImages', next); // the live read above shows it
  }
}
