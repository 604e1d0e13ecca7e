/// <reference lib="webworker" />
// Thin host: the import service (core parsing + validation, Dexie writes) runs here so that
// parsing a 100k-row file never blocks the UI thread. Dexie works in workers; the UI re-reads
// the database when a call resolves.
import { expose, workerScopeEndpoint } from '../src/rpc';
import { ToolMemDB, createRepositories } from '../src/db';
import { createImportHandlers } from '../src/services/import-service';
import type { ImportApi } from '../src/services/import-api';

const db = new ToolMemDB();
expose<ImportApi>(createImportHandlers(createRepositories(db)), workerScopeEndpoint());
