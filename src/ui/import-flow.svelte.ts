import type { FieldMapping, ImportProgress, PreviewResult } from '../core/import/types';
import type { PresetId, ScoreScale } from '../core/types';
import { CancelledError } from '../core/errors';
import type { Client } from '../rpc';
import type { ImportApi, ImportOutcome, ImportRequest } from '../services/import-api';

export type ImportStep = 'choose' | 'configure' | 'running' | 'done';

/** What the dialog says when an import stops; the import service has rolled back every batch by then. */
export function importErrorMessage(err: unknown): string {
  if (err instanceof CancelledError) return 'Import cancelled. Nothing from this file was kept.';
  const message = err instanceof Error ? err.message : String(err);
  // StorageFullError already says that nothing was saved and what to free.
  if (err instanceof Error && err.name === 'StorageFullError') return `${message} The rows already written by this import were removed again.`;
  return `${message} Nothing from this file was kept.`;
}

/**
 * State of the import dialog: choose a file → check the preview and settings → import with
 * progress → result. Parsing and writing happen in the import worker; this class only holds
 * what the user chose and what the worker reported.
 */
export class ImportFlow {
  step = $state<ImportStep>('choose');
  file = $state<File | null>(null);
  skills = $state<File | null>(null);
  prompts = $state<File | null>(null);
  preset = $state<PresetId | undefined>(undefined);
  datasetName = $state('');
  mapping = $state<FieldMapping>({});
  scale = $state<ScoreScale | undefined>(undefined);
  judgeColumn = $state<string | undefined>(undefined);
  preview = $state.raw<PreviewResult | null>(null);
  previewing = $state(false);
  previewError = $state<string | null>(null);
  progress = $state<ImportProgress | null>(null);
  outcome = $state.raw<ImportOutcome | null>(null);
  error = $state<string | null>(null);
  /** Set with `error` when the browser's storage is full, so the dialog can point at Settings → Storage. */
  storageFull = $state(false);
  #abort: AbortController | null = null;
  #previewSeq = 0;

  constructor(
    private readonly client: Client<ImportApi>,
    private readonly onImported: (outcome: ImportOutcome) => void | Promise<void>,
  ) {}

  request(): ImportRequest {
    if (!this.file) throw new Error('No file chosen');
    const mapping = Object.fromEntries(Object.entries(this.mapping).filter(([, v]) => v)) as FieldMapping;
    return {
      file: this.file,
      ...(this.skills ? { skills: this.skills } : {}),
      ...(this.prompts ? { prompts: this.prompts } : {}),
      ...(this.datasetName.trim() ? { datasetName: this.datasetName.trim() } : {}),
      ...(this.preset ? { preset: this.preset } : {}),
      ...(this.preset === 'generic' && Object.keys(mapping).length ? { mapping } : {}),
      ...(this.scale ? { scale: $state.snapshot(this.scale) } : {}),
      ...(this.judgeColumn ? { judgeColumn: this.judgeColumn } : {}),
    };
  }

  async choose(file: File): Promise<void> {
    this.reset();
    this.file = file;
    this.step = 'configure';
    await this.refreshPreview(true);
  }

  /** Re-reads the first rows with the current settings; adopts detected settings on first run. */
  async refreshPreview(adopt = false): Promise<void> {
    if (!this.file) return;
    const seq = ++this.#previewSeq;
    this.previewing = true;
    try {
      const preview = await this.client.call('preview', { ...this.request(), rows: 8 });
      if (seq !== this.#previewSeq) return;
      this.preview = preview;
      this.previewError = null;
      if (adopt) {
        this.preset = preview.preset;
        if (preview.mapping) this.mapping = { ...preview.mapping };
        if (preview.judge) this.judgeColumn = preview.judge;
      }
    } catch (err) {
      if (seq !== this.#previewSeq) return;
      this.preview = null;
      this.previewError = err instanceof Error ? err.message : String(err);
    } finally {
      if (seq === this.#previewSeq) this.previewing = false;
    }
  }

  async start(): Promise<void> {
    const req = this.request();
    this.#abort = new AbortController();
    this.step = 'running';
    this.error = null;
    this.storageFull = false;
    this.progress = { bytesRead: 0, totalBytes: req.file.size, rowsRead: 0, accepted: 0, rejected: 0, rowsPerSecond: 0 };
    try {
      this.outcome = await this.client.call('import', req, {
        signal: this.#abort.signal,
        onProgress: (p) => (this.progress = p),
      });
      this.step = 'done';
      await this.onImported(this.outcome);
    } catch (err) {
      this.step = 'configure';
      this.storageFull = err instanceof Error && err.name === 'StorageFullError';
      this.error = importErrorMessage(err);
    } finally {
      this.#abort = null;
    }
  }

  cancel(): void {
    this.#abort?.abort();
  }

  reset(): void {
    this.cancel();
    this.step = 'choose';
    this.file = this.skills = this.prompts = null;
    this.preset = this.scale = this.judgeColumn = undefined;
    this.datasetName = '';
    this.mapping = {};
    this.preview = this.outcome = this.progress = null;
    this.previewError = this.error = null;
    this.storageFull = false;
  }
}
