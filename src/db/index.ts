export { ToolMemDB, type ImportBackup, type SettingRow, type EmbeddingRow } from './schema';
export { createRepositories } from './repositories';
export { isQuotaError, withQuotaCheck, storageFullMessage, toStorageFullError, currentUsage, type StorageUsage } from './quota';
export { requestPersistence, storageEstimate, type StorageInfo } from './persistence';
export { getSetting, setSetting, DEFAULT_SETTINGS, type Settings } from './settings';
export { DexieEmbeddingStore, embeddingModelSetting, EMBEDDING_MODEL_KEY } from './embedding-store';
export { clearAllTables, exportBackup, restoreBackup, BACKUP_FORMAT, BACKUP_VERSION } from './backup';
