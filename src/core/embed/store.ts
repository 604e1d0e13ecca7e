/** What the embedding cache stores and the contract a storage backend meets (IndexedDB, a Map, a file). */
export interface EmbeddingKey {
  modelId: string;
  /** Lower-case hex SHA-256 of the UTF-8 text. */
  hash: string;
}

export interface EmbeddingRecord extends EmbeddingKey {
  vector: Float32Array;
}

/** What a storage backend must offer. `get` answers in key order, `undefined` for a miss. */
export interface EmbeddingStore {
  get(keys: readonly EmbeddingKey[]): Promise<(Float32Array | undefined)[]>;
  put(records: readonly EmbeddingRecord[]): Promise<void>;
}
