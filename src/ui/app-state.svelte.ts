import { ToolMemDB, createRepositories } from '../db';
import type { Repositories } from '../core/repositories';
import type { Dataset, ImportRecord, Tool } from '../core/types';
import { TOAST_RESUME_MS, toastDuration } from './toast-timing';

export interface DatasetSummary {
  dataset: Dataset;
  total: number;
  perTool: { toolId: string; count: number }[];
  imports: ImportRecord[];
}

export interface Toast {
  id: number;
  kind: 'info' | 'ok' | 'error';
  text: string;
  action?: { label: string; run: () => void };
}

/** App-wide state: the database, what it holds (summaries, not rows), and notifications. */
export class AppState {
  readonly db: ToolMemDB;
  readonly repos: Repositories;
  // Raw (not deeply proxied): replaced wholesale by refresh(), and objects from here are written back to IndexedDB, which cannot clone proxies.
  datasets = $state.raw<DatasetSummary[]>([]);
  tools = $state.raw<Tool[]>([]);
  loaded = $state(false);
  loadError = $state<string | null>(null);
  toasts = $state<Toast[]>([]);
  online = $state(typeof navigator === 'undefined' ? true : navigator.onLine);
  #nextToast = 1;

  totalExperiences = $derived(this.datasets.reduce((sum, d) => sum + d.total, 0));

  /** An open connection to reuse, or the name of the database to open. */
  constructor(db: ToolMemDB | string = 'toolmem') {
    this.db = typeof db === 'string' ? new ToolMemDB(db) : db;
    this.repos = createRepositories(this.db);
    window.addEventListener('online', () => (this.online = true));
    window.addEventListener('offline', () => (this.online = false));
  }

  async refresh(): Promise<void> {
    try {
      const datasets = await this.repos.datasets.list();
      this.datasets = await Promise.all(
        datasets.map(async (dataset) => {
          const counts = await this.repos.experiences.countsByTool(dataset.id);
          const perTool = [...counts].map(([toolId, count]) => ({ toolId, count })).sort((a, b) => a.toolId.localeCompare(b.toolId));
          return {
            dataset,
            total: perTool.reduce((s, t) => s + t.count, 0),
            perTool,
            imports: await this.repos.imports.byDataset(dataset.id),
          };
        }),
      );
      this.tools = await this.repos.tools.list();
      this.loadError = null;
    } catch (err) {
      this.loadError = err instanceof Error ? err.message : String(err);
    } finally {
      this.loaded = true;
    }
  }

  #refreshTimer: ReturnType<typeof setTimeout> | null = null;

  /** Coalesces many small writes (labels given one per key press) into one refresh. */
  refreshSoon(ms = 600): void {
    if (this.#refreshTimer) clearTimeout(this.#refreshTimer);
    this.#refreshTimer = setTimeout(() => {
      this.#refreshTimer = null;
      void this.refresh();
    }, ms);
  }

  /**
   * Counts a label written (+1) or taken back (-1) at once in the dataset summaries and the nav's
   * total, without waiting for the coalesced refresh (which re-reads the true counts after it).
   */
  countLabel(datasetId: string, toolId: string, delta: 1 | -1): void {
    this.datasets = this.datasets.map((d) => {
      if (d.dataset.id !== datasetId) return d;
      const known = d.perTool.some((t) => t.toolId === toolId);
      const perTool = known
        ? d.perTool.map((t) => (t.toolId === toolId ? { toolId, count: Math.max(0, t.count + delta) } : t))
        : [...d.perTool, { toolId, count: Math.max(0, delta) }].sort((a, b) => a.toolId.localeCompare(b.toolId));
      return { ...d, perTool, total: perTool.reduce((sum, t) => sum + t.count, 0) };
    });
  }

  // Timer handles, not state: nothing renders from them.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #toastTimers = new Map<number, ReturnType<typeof setTimeout>>();

  /** Shows a notification; how long it stays follows toastDuration (src/ui/toast-timing.ts) unless `ms` is given. */
  toast(kind: Toast['kind'], text: string, action?: Toast['action'], ms?: number): void {
    const id = this.#nextToast++;
    this.toasts = [...this.toasts, { id, kind, text, ...(action ? { action } : {}) }];
    const stay = ms ?? toastDuration(kind, text, !!action);
    if (stay !== null) this.#toastTimers.set(id, setTimeout(() => this.dismiss(id), stay));
  }

  /** Keeps a toast while the pointer or focus is on it (it may be read or its action reached). */
  holdToast(id: number): void {
    clearTimeout(this.#toastTimers.get(id));
  }

  /** Lets a held toast go after a short while; one that stays until dismissed keeps staying. */
  releaseToast(id: number): void {
    const t = this.toasts.find((x) => x.id === id);
    if (!t || toastDuration(t.kind, t.text, !!t.action) === null) return;
    clearTimeout(this.#toastTimers.get(id));
    this.#toastTimers.set(id, setTimeout(() => this.dismiss(id), TOAST_RESUME_MS));
  }

  dismiss(id: number): void {
    clearTimeout(this.#toastTimers.get(id));
    this.#toastTimers.delete(id);
    this.toasts = this.toasts.filter((t) => t.id !== id);
  }
}
