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

  constructor(app: AppState, datasetId: () => string | undefined) {
    this.#app = app;
    this.#datasetId = datasetId;
    $effect(() => app.store.watch(() => app.store.get('labelWithoutImages'), (ids) => (this.#skipped = ids)));
    // A live count: images attached (by the data worker) open the queue by themselves.
    $effect(() => {
      const id = this.#shownId;
      this.#images = null;
      if (!id || !this.imageDataset) return;
      return app.store.watch(() => app.repos.images.countByDataset(id), (n) => (this.#images = n));
    });
  }

  /** Text datasets to offer instead. */
  get alternatives(): DatasetSummary[] {
    return textDatasets(this.#app.datasets, this.#app.tools);
  }

  async scoreWithout(): Promise<void> {
    const id = this.summary?.dataset.id;
    if (!id) return;
    const ids = await this.#app.store.get('labelWithoutImages');
    const next = ids.includes(id) ? ids : [...ids, id];
    await this.#app.store.set('labelWithoutImages', next); // the live read above shows it
  }
}
