import type { CapabilityCell, Facet } from '../core/capability/types';
import type { Repositories } from '../core/repositories';
import type { Experience } from '../core/types';
import type { MemoryEntry } from '../core/records';
import { cellEntries } from './capability-matrix';

/** Experiences read per entry: the panel shows the first ones, with the total beside them. */
export const EVIDENCE_SHOWN = 8;

/**
 * What the Memory page shows for one opened matrix cell: its entries (read from the index by
 * tool, never the whole memory) and the experiences behind each. A newer cell opened before the
 * reads finish wins: older reads are dropped on arrival, so a slow read never overwrites a newer
 * cell's panel.
 */
export class CellDetail {
  #entries = $state.raw<MemoryEntry[]>([]);
  /** Per entry (by id), its first EVIDENCE_SHOWN experiences in the entry's evidence order. */
  #evidence = $state.raw<readonly { entryId: string; experiences: Experience[] }[]>([]);
  #loading = $state(false);
  #error = $state<string | null>(null);
  // Read from outside through getters; changed only by this class's methods.
  get entries() {
    return this.#entries;
  }
  get evidence() {
    return this.#evidence;
  }
  get loading() {
    return this.#loading;
  }
  get error() {
    return this.#error;
  }
  #token = 0;

  constructor(private readonly repos: Repositories) {}

  async load(memoryId: string, cell: CapabilityCell, facet: Facet): Promise<void> {
    const token = ++this.#token;
    this.#loading = true;
    this.#error = null;
    this.#entries = [];
    this.#evidence = [];
    try {
      const rows = cellEntries(await this.repos.memories.validEntries(memoryId, cell.toolId), cell, facet);
      if (token !== this.#token) return;
      this.#entries = rows;
      const evidence: { entryId: string; experiences: Experience[] }[] = [];
      for (const e of rows) {
        const found = await Promise.all(e.evidence.slice(0, EVIDENCE_SHOWN).map((id) => this.repos.experiences.get(id)));
        if (token !== this.#token) return;
        evidence.push({ entryId: e.id, experiences: found.filter((x): x is Experience => x !== undefined) });
      }
      this.#evidence = evidence;
    } catch (err) {
      if (token === this.#token) this.#error = err instanceof Error ? err.message : String(err);
    } finally {
      if (token === this.#token) this.#loading = false;
    }
  }

  /** The experiences read for one entry (none until they arrive). */
  evidenceOf(entryId: string): Experience[] {
    return this.#evidence.find((x) => x.entryId === entryId)?.experiences ?? [];
  }

  clear(): void {
    this.#token++;
    this.#entries = [];
    this.#evidence = [];
    this.#loading = false;
    this.#error = null;
  }
}
