import { SvelteMap } from 'svelte/reactivity';
import { toolChoicesFrom, type ToolDecision } from '../core/import/near-miss-tools';
import type { CanonicalField, FieldMapping, ImportProgress, NearMissTool, PreviewResult } from '../core/import/types';
import type { RowCounts } from '../core/import/row-counts';
import type { PresetId, ScoreScale } from '../core/types';
import type { ImportOutcome, ImportRequest } from '../app/import/api';
import type { Send } from './send';
import { pickRunFiles } from '../core/import/run-files';
import { importErrorMessage, importRequestOf } from './import-request';

export type ImportStep = 'choose' | 'configure' | 'running' | 'done';
export type { ToolDecision };
export { importErrorMessage };

/**
 * State of the import dialog: choose a file → check the preview and settings → import with
 * progress → result. Parsing and writing happen in the data worker; this class only holds
 * what the user chose and what the worker reported.
 */
export class ImportFlow {
  #step = $state<ImportStep>('choose');
  #file = $state<File | null>(null);
  #skills = $state<File | null>(null);
  #prompts = $state<File | null>(null);
  /** Files of the same run chosen with the data (lm-eval results; HELM scenario state and run spec). */
  #results = $state<File | null>(null);
  #scenarioState = $state<File | null>(null);
  #runSpec = $state<File | null>(null);
  /** Names of chosen files that are not part of the run imported (a folder with more in it). */
  #unused = $state.raw<string[]>([]);
  #preset = $state<PresetId | undefined>(undefined);
  #datasetName = $state('');
  #mapping = $state<FieldMapping>({});
  #scale = $state<ScoreScale | undefined>(undefined);
  #judgeColumn = $state<string | undefined>(undefined);
  /** The tool of every row, for a file without a model column (generic; lm-eval samples without their results file). */
  #defaultTool = $state('');
  /** HELM: the metric to import (empty: the run's main metric). */
  #metric = $state('');
  #preview = $state.raw<PreviewResult | null>(null);
  #previewing = $state(false);
  #previewError = $state<string | null>(null);
  /** The first records of the file as read, for the mapping's path picker (JSON, JSONL, Parquet). */
  #samples = $state.raw<unknown[]>([]);
  #progress = $state<ImportProgress | null>(null);
  #outcome = $state.raw<ImportOutcome | null>(null);
  #error = $state<string | null>(null);
  /** Set with `error` when the browser's storage is full, so the dialog can point at Settings → Storage. */
  #storageFull = $state(false);
  /** File tool names close to a stored tool, from a scan of the whole file after the preview. */
  #nearMisses = $state.raw<NearMissTool[]>([]);
  #checkingTools = $state(false);
  /** Whole-file counts, read when the preview shows a row without a score ("12 outputs to label"); null otherwise. */
  #rowCounts = $state.raw<RowCounts | null>(null);
  #counting = $state(false);
  #toolCheckError = $state<string | null>(null);
  // Read-only from outside: the dialog changes the flow through its methods; the three text fields
  // it binds (dataset name, tool for every row, HELM metric) have setters.
  get step() {
    return this.#step;
  }
  get file() {
    return this.#file;
  }
  get skills() {
    return this.#skills;
  }
  get prompts() {
    return this.#prompts;
  }
  get results() {
    return this.#results;
  }
  get scenarioState() {
    return this.#scenarioState;
  }
  get runSpec() {
    return this.#runSpec;
  }
  get unused() {
    return this.#unused;
  }
  get preset() {
    return this.#preset;
  }
  get datasetName() {
    return this.#datasetName;
  }
  set datasetName(v: string) {
    this.#datasetName = v;
  }
  get mapping() {
    return this.#mapping;
  }
  get scale() {
    return this.#scale;
  }
  get judgeColumn() {
    return this.#judgeColumn;
  }
  get defaultTool() {
    return this.#defaultTool;
  }
  set defaultTool(v: string) {
    this.#defaultTool = v;
  }
  get metric() {
    return this.#metric;
  }
  set metric(v: string) {
    this.#metric = v;
  }
  get preview() {
    return this.#preview;
  }
  get previewing() {
    return this.#previewing;
  }
  get previewError() {
    return this.#previewError;
  }
  get samples() {
    return this.#samples;
  }
  get progress() {
    return this.#progress;
  }
  get outcome() {
    return this.#outcome;
  }
  get error() {
    return this.#error;
  }
  get storageFull() {
    return this.#storageFull;
  }
  get nearMisses() {
    return this.#nearMisses;
  }
  get checkingTools() {
    return this.#checkingTools;
  }
  get rowCounts() {
    return this.#rowCounts;
  }
  /** The whole-file read (counts, scale) is running. */
  get counting() {
    return this.#counting;
  }
  get toolCheckError() {
    return this.#toolCheckError;
  }
  /** Name → what the user chose; a name without a decision is refused as before ("did you mean …?"). A Map: names are data. */
  readonly toolDecisions = new SvelteMap<string, ToolDecision>();
  #abort: AbortController | null = null;
  #detected: PresetId | undefined;
  #previewSeq = 0;
  #scan: AbortController | null = null;
  #rescanSeq = 0;

  constructor(
    private readonly send: Send,
    private readonly onImported: (outcome: ImportOutcome) => void | Promise<void>,
  ) {}

  request(): ImportRequest {
    if (!this.#file) throw new Error('No file chosen');
    return importRequestOf({
      file: this.#file,
      skills: this.#skills,
      prompts: this.#prompts,
      results: this.#results,
      scenarioState: this.#scenarioState,
      runSpec: this.#runSpec,
      datasetName: this.#datasetName,
      preset: this.#preset,
      mapping: this.#mapping,
      scale: this.#scale ? $state.snapshot(this.#scale) : undefined,
      judgeColumn: this.#judgeColumn,
      metric: this.#metric,
      defaultTool: this.#defaultTool,
    });
  }

  /** The request the Import button sends: the settings plus the tool decisions (plain Map/Set, cloned to the worker). */
  importRequest(): ImportRequest {
    const choices = toolChoicesFrom(this.#nearMisses, this.toolDecisions);
    return { ...this.request(), ...(choices ? { toolChoices: choices } : {}) };
  }

  /** The settings the dialog changes, each followed by a fresh preview. */
  choosePreset(id: PresetId | undefined): void {
    this.#preset = id;
    this.#scale = undefined;
    void this.refreshPreview();
  }
  mapField(field: CanonicalField, column: string): void {
    this.#mapping = { ...this.#mapping, [field]: column || undefined };
    void this.refreshPreview();
  }
  setScale(scale: ScoreScale): void {
    this.#scale = scale;
    void this.refreshPreview();
  }
  setJudgeColumn(column: string): void {
    this.#judgeColumn = column;
    void this.refreshPreview();
  }
  setSidecar(kind: 'skills' | 'prompts', file: File | null): void {
    if (kind === 'skills') this.#skills = file;
    else this.#prompts = file;
    void this.refreshPreview();
  }

  decideTool(name: string, decision: ToolDecision): void {
    this.toolDecisions.set(name, decision);
    void this.refreshPreview(false, false);
  }

  /**
   * Several files at once (picked together, a folder, or dropped): the data file and the files of
   * its run (core/import/run-files.ts); the rest are named as unused.
   */
  async chooseFiles(files: readonly File[]): Promise<void> {
    const pick = pickRunFiles(files, (f) => f.webkitRelativePath || f.name);
    if (!pick) return;
    await this.choose(pick.data, pick);
  }

  async choose(file: File, run?: { results?: File; scenarioState?: File; runSpec?: File; unused?: File[] }): Promise<void> {
    this.reset();
    this.#file = file;
    this.#results = run?.results ?? null;
    this.#scenarioState = run?.scenarioState ?? null;
    this.#runSpec = run?.runSpec ?? null;
    this.#unused = (run?.unused ?? []).map((f) => f.name);
    this.#step = 'configure';
    await Promise.all([this.refreshPreview(true), this.loadSamples(file)]);
    // The first preview was refused (a generic file whose fields are all nested): still show the
    // detected preset's settings, so that the mapping can be completed.
    if (this.#file === file && !this.#preset && this.#detected) this.#preset = this.#detected;
  }

  /** Reads the first records for the path picker; independent of the mapping, so it works while the preview refuses one. */
  async loadSamples(file: File): Promise<void> {
    try {
      const { format, samples, preset } = await this.send('samples', { file, rows: 5 });
      if (this.#file !== file) return;
      this.#samples = format === 'csv' ? [] : samples;
      this.#detected = preset;
    } catch {
      // The preview reports why the file cannot be read.
      if (this.#file === file) this.#samples = [];
    }
  }

  /** Re-reads the first rows with the current settings; adopts detected settings on first run. */
  async refreshPreview(adopt = false, rescan = true): Promise<void> {
    if (!this.#file) return;
    const seq = ++this.#previewSeq;
    // A later refresh without a rescan (a tool decision) must not swallow this one's rescan.
    const scanSeq = rescan ? ++this.#rescanSeq : -1;
    this.#previewing = true;
    try {
      // With the tool decisions, so a name the user decided is no longer shown as a problem.
      const preview = await this.send('preview', { ...this.importRequest(), rows: 8 });
      if (seq !== this.#previewSeq) return;
      this.#preview = preview;
      this.#previewError = null;
      if (adopt) {
        this.#preset = preview.preset;
        if (preview.mapping) this.#mapping = { ...preview.mapping };
        if (preview.judge) this.#judgeColumn = preview.judge;
      }
    } catch (err) {
      if (seq !== this.#previewSeq) return;
      this.#preview = null;
      this.#previewError = err instanceof Error ? err.message : String(err);
    } finally {
      if (seq === this.#previewSeq) this.#previewing = false;
    }
    if (scanSeq === this.#rescanSeq && this.#preview) await Promise.all([this.checkTools(), this.countOutputs(seq)]);
  }

  /**
   * Reads the whole file as the import would (nothing stored): its rows with and without a score
   * ("12 outputs to label") and the scale the import would use, so the dialog shows the inferred
   * scale in Min and Max before the import, and asks for one the scores cannot tell (issue #38).
   */
  async countOutputs(seq: number): Promise<void> {
    if (!this.#preview) {
      this.#rowCounts = null;
      return;
    }
    this.#counting = true;
    try {
      const counts = await this.send('countRows', this.request());
      if (seq === this.#previewSeq) this.#rowCounts = counts;
    } catch {
      // The preview already says what is wrong with the file; the count is only a summary.
      if (seq === this.#previewSeq) this.#rowCounts = null;
    } finally {
      if (seq === this.#previewSeq) this.#counting = false;
    }
  }

  /**
   * The scale the import would infer from the whole file (null: a scale is set, the format has
   * one, the file is still being read, or the scores cannot tell it).
   */
  get inferredScale(): ScoreScale | null {
    const c = this.#rowCounts;
    return !this.#scale && c && c.scaleInferred && !c.scaleUndecided ? c.scale : null;
  }

  /** The scores cannot tell the scale (no score, or all equal) and none is set: the dialog asks, Import waits. */
  get scaleNeeded(): boolean {
    return !this.#scale && !!this.#rowCounts?.scaleUndecided;
  }

  /**
   * Scans the whole file (in the worker) for tool names that look like a stored tool, with the
   * current settings (the tool column may have changed). A newer scan cancels an older one;
   * decisions for names still found are kept.
   */
  async checkTools(): Promise<void> {
    this.#scan?.abort();
    const scan = (this.#scan = new AbortController());
    this.#checkingTools = true;
    this.#toolCheckError = null;
    try {
      const found = await this.send('nearMissTools', this.request(), { signal: scan.signal });
      if (scan.signal.aborted) return;
      this.#nearMisses = found;
      for (const name of [...this.toolDecisions.keys()]) if (!found.some((m) => m.name === name)) this.toolDecisions.delete(name);
    } catch (err) {
      if (scan.signal.aborted) return;
      // The import reports the same rows as rejected; say why the choice is missing.
      this.#nearMisses = [];
      this.#toolCheckError = err instanceof Error ? err.message : String(err);
    } finally {
      if (this.#scan === scan) {
        this.#checkingTools = false;
        this.#scan = null;
      }
    }
  }

  async start(): Promise<void> {
    const req = this.importRequest();
    this.#abort = new AbortController();
    this.#step = 'running';
    this.#error = null;
    this.#storageFull = false;
    this.#progress = { bytesRead: 0, totalBytes: req.file.size, rowsRead: 0, accepted: 0, rejected: 0, rowsPerSecond: 0 };
    try {
      this.#outcome = await this.send('import', req, {
        signal: this.#abort.signal,
        onProgress: (p) => (this.#progress = p),
      });
      this.#step = 'done';
      await this.onImported(this.#outcome);
    } catch (err) {
      this.#step = 'configure';
      this.#storageFull = err instanceof Error && err.name === 'StorageFullError';
      this.#error = importErrorMessage(err);
    } finally {
      this.#abort = null;
    }
  }

  cancel(): void {
    this.#abort?.abort();
  }

  reset(): void {
    this.cancel();
    this.#scan?.abort();
    this.#scan = null;
    this.#nearMisses = [];
    this.toolDecisions.clear();
    this.#checkingTools = false;
    this.#toolCheckError = null;
    this.#step = 'choose';
    this.#file = this.#skills = this.#prompts = this.#results = this.#scenarioState = this.#runSpec = null;
    this.#unused = [];
    this.#metric = '';
    this.#preset = this.#scale = this.#judgeColumn = undefined;
    this.#datasetName = '';
    this.#defaultTool = '';
    this.#mapping = {};
    this.#preview = this.#outcome = this.#progress = this.#rowCounts = null;
    this.#samples = [];
    this.#detected = undefined;
    this.#previewError = this.#error = null;
    this.#storageFull = false;
  }
}
