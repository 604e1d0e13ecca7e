/**
 * The data worker's whole-store writes: a backup restored, every table emptied, and the runs a
 * closed tab left `running` settled. The page only reads storage (src/ui/storage.ts); these writes
 * happen here, behind handlers, like every other data write (settings are the one exception).
 */
export interface StorageApi {
  /** Replaces everything with a backup file's contents; refuses a file that is not one, changing nothing. Rows restored per table. */
  restoreBackup: { req: { text: string }; res: Record<string, number>; progress: never };
  /** Empties every table (data, memories, runs, settings, the embedding cache) in one transaction. */
  resetData: { req: null; res: null; progress: never };
  /** Marks evaluations left `running` by a closed or reloaded tab as failed (interrupted); how many. */
  recoverRuns: { req: { graceMs?: number }; res: { runs: number }; progress: never };
}
