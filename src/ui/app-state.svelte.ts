import { ToolMemDB, createRepositories } from '../db';
import type { Repositories } from '../core/repositories';
import type { Dataset, ImportRecord, Tool } from '../core/types';

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

  toast(kind: Toast['kind'], text: string, action?: Toast['action'], ms = kind === 'error' ? 12000 : 6000): void {
    const id = this.#nextToast++;
    this.toasts = [...this.toasts, { id, kind, text, ...(action ? { action } : {}) }];
    setTimeout(() => this.dismiss(id), ms);
  }

  dismiss(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id);
  }
}
