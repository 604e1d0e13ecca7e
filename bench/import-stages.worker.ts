/// <reference lib="webworker" />
// Runs bench/import-stages.ts in a worker (where the app imports) for `npm run bench:import -- --stages`.
import { runStages } from './import-stages';

self.onmessage = async (e: MessageEvent<{ file: File; stages?: string[] }>) => {
  self.postMessage(await runStages(e.data.file, e.data.stages));
};
