/** Row shapes of the tables that hold no domain record (undo backups, embedding cache, settings). */
import type { Experience } from '../core/types';

/** A stored row that an import replaced; undoing the import puts it back. */
export interface ImportBackup {
  importId: string;
  experienceId: string;
  previous: Experience;
}

/**
 * A cached embedding in the v1–v4 layout (one row per vector, key: model id + SHA-256 of the text).
 * Only the v5 upgrade reads it (db/embedding-blocks.ts); v5 stores blocks instead.
 */
export interface EmbeddingRow {
  model: string;
  hash: string;
  vector: Float32Array;
}

/** v5: up to 512 cached vectors of one model, packed (layout and reasons: db/embedding-blocks.ts). */
export interface EmbeddingBlockRow {
  /** 128 random bits as hex, chosen by the writer so the key row needs no answer first. */
  id: string;
  model: string;
  dim: number;
  /** SHA-256 (lower-case hex) of each vector's text, in row order. */
  hashes: string[];
  /** `hashes.length × dim` floats; row i is the vector of `hashes[i]`. */
  vectors: Float32Array;
}

/** v5: a block's model and hashes without its vectors, read by lookups. */
export interface EmbeddingKeysRow {
  /** Auto-increment: rows with an id above the last one read are the new ones. */
  id: number;
  block: string;
  model: string;
  hashes: string[];
}

export interface SettingRow {
  key: string;
  value: unknown;
}
