import { compareIds } from '../core/ids';
import type { Repositories } from '../core/repositories';
import type { Dataset, ImportRecord, Tool } from '../core/types';
import { UiStorage, type ToolMemDB } from './storage';
import { TOAST_RESUME_MS, toastDuration } from './toast-timing';

export interface DatasetSummary {
  dataset: Dataset;
  total: number;
  perTool: { toolId: string; count: number }[];
  /** Per tool, outputs awaiting labels (label items no experience scores yet: imported without a score, or added by hand). */
  awaiting: { toolId: string; count: number }[];
  /** Sum of `awaiting`. */
  awaitingTotal: number;
  imports: ImportRecord[];
}

/** Every tool of a dataset: those with experiences and those with outputs awaiting labels, sorted. */
export function summaryTools(summary: DatasetSummary): string[] {
  const ids = [...summary.perTool.map((t) => t.toolId), ...summary.awaiting.map((t) => t.toolId)];
  return ids.filter((id, i) => ids.indexOf(id) === i).sort(compareIds);
}

export interface Toast {
  id: number;
  kind: 'info' | 'ok' | 'error';
  text: string;
  action?: { label: string; run: () => void };
}

/** App-wide state: the storage adapter, what it holds (summaries, not rows, read live), and notifications. */
export class AppState {
  readonly store: UiStorage;
  readonly repos: Repositories;
  // Raw (not deeply proxied): replaced wholesale by each live read, and objects from here are written back to IndexedDB, which cannot clone proxies.
  #datasets = $state.raw<DatasetSummary[]>([]);
  #tools = $state.raw<Tool[]>([]);
  #loaded = $state(false);
  #loadError = $state<string | null>(null);
  #toasts = $state<Toast[]>([]);
  #online = $state(typeof navigator === 'undefined' ? true : navigator.onLine);
  // Read from outside through getters; changed only by this class's methods.
  get datasets() {
    return this.#datasets;
  }
  get tools() {
    return this.#tools;
  }
  get loaded() {
    return this.#loaded;
  }
  get loadError() {
    return this.#loadError;
  }
  get toasts() {
    return this.#toasts;
  }
  get online() {
    return this.#online;
  }
  #nextToast = 1;

  totalExperiences = $derived(this.#datasets.reduce((sum, d) => sum + d.total, 0));

  /** An open connection to reuse, or the name of the database to open. */
  constructor(db: ToolMemDB | string = 'toolmem') {
    this.store = new UiStorage(db);
    this.repos = this.store.repos;
    window.addEventListener('online', () => (this.#online = true));
    window.addEventListener('offline', () => (this.#online = false));
  }

  #unwatch: (() => void) | null = null;
  #staleToast = false;

  /**
   * Starts (or, after the database was deleted and reopened, restarts) the live read of the
   * summaries: from then on every write to datasets, counts, imports or tools, from this tab or a
   * worker, updates them by itself. Resolves once the first read is in.
   */
  refresh(): Promise<void> {
    this.#unwatch?.();
    return new Promise((resolve) => {
      this.#unwatch = this.store.watch(
        () => this.#read(),
        ({ datasets, tools }) => {
          this.#datasets = datasets;
          this.#tools = tools;
          this.#loadError = null;
          this.#loaded = true;
          this.#staleToast = false;
          resolve();
        },
        (err) => {
          const message = err instanceof Error ? err.message : String(err);
          // The first read failing means nothing to show (the app says so in place of the page).
          // A later one keeps the summaries on screen, and the page with its work in progress:
          // the read runs again with the next write. Said once until a read succeeds.
          if (!this.#loaded) this.#loadError = message;
          else if (!this.#staleToast) {
            this.#staleToast = true;
            this.toast('error', `Could not update the dataset counts: ${message}`);
          }
          this.#loaded = true;
          resolve();
        },
      );
    });
  }

  async #read(): Promise<{ datasets: DatasetSummary[]; tools: Tool[] }> {
    const datasets = await this.repos.datasets.list();
    const summaries = await Promise.all(
      datasets.map(async (dataset) => {
        const counts = await this.repos.experiences.countsByTool(dataset.id);
        const perTool = [...counts].map(([toolId, count]) => ({ toolId, count })).sort((a, b) => compareIds(a.toolId, b.toolId));
        const awaiting = [...(await this.repos.labels.awaiting(dataset.id))]
          .map(([toolId, count]) => ({ toolId, count }))
          .sort((a, b) => compareIds(a.toolId, b.toolId));
        return {
          dataset,
          total: perTool.reduce((s, t) => s + t.count, 0),
          perTool,
          awaiting,
          awaitingTotal: awaiting.reduce((s, t) => s + t.count, 0),
          imports: await this.repos.imports.byDataset(dataset.id),
        };
      }),
    );
    return { datasets: summaries, tools: await this.repos.tools.list() };
  }

  // Timer handles, not state: nothing renders from them.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #toastTimers = new Map<number, ReturnType<typeof setTimeout>>();

  /** Shows a notification; how long it stays follows toastDuration (src/ui/toast-timing.ts) unless `ms` is given. */
  toast(kind: Toast['kind'], text: string, action?: Toast['action'], ms?: number): void {
    const id = this.#nextToast++;
    this.#toasts = [...this.#toasts, { id, kind, text, ...(action ? { action } : {}) }];
    const stay = ms ?? toastDuration(kind, text, !!action);
    if (stay !== null)
      this.#toastTimers.set(
        id,
        setTimeout(() => this.dismiss(id), stay),
      );
  }

  /** Keeps a toast while the pointer or focus is on it (it may be read or its action reached). */
  holdToast(id: number): void {
    clearTimeout(this.#toastTimers.get(id));
  }

  /** Lets a held toast go after a short while; one that stays until dismissed keeps staying. */
  releaseToast(id: number): void {
    const t = this.#toasts.find((x) => x.id === id);
    if (!t || toastDuration(t.kind, t.text, !!t.action) === null) return;
    clearTimeout(this.#toastTimers.get(id));
    this.#toastTimers.set(
      id,
      setTimeout(() => this.dismiss(id), TOAST_RESUME_MS),
    );
  }

  dismiss(id: number): void {
    clearTimeout(this.#toastTimers.get(id));
    this.#toastTimers.delete(id);
    this.#toasts = this.#toasts.filter((t) => t.id !== id);
  }
}
