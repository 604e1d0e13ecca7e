/**
 * Node host for the embed service (tests, CLI, scripts): models from a folder (default
 * `<repo>/public/models/`, the same files the PWA serves) through `createTransformersEmbedder`,
 * on onnxruntime-node's CPU backend. A model that is not a folder there is treated as a hub id and
 * only loaded when `allowNetwork` is true.
 */
import { existsSync, readFileSync, statSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { own } from '../core/data-keys';
import { embedderId } from '../core/embed/index';
import { createTransformersEmbedder, DEFAULT_MODELS_DIR } from './transformers-embedder';
import { BUNDLED_EMBED_MODEL, KNOWN_HUB_DIMS, ModelLoadError, type EmbedModelSource } from './embed-host';
import { toModelLoadError } from './embed-errors';
import type { EmbedHost, LoadedModel, ModelDescription } from './embed-host';

export interface NodeEmbedHostOptions {
  modelsDir?: string;
  /** Allow downloading hub models (default false: offline). */
  allowNetwork?: boolean;
  batchSize?: number;
}

interface LocalConfig {
  hidden_size?: number;
  toolmem_static_embedding?: { revision?: string };
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile() && entry.name !== 'README.md') total += statSync(path).size;
  }
  return total;
}

export function createNodeEmbedHost(options: NodeEmbedHostOptions = {}): EmbedHost {
  const modelsDir = resolve(options.modelsDir ?? DEFAULT_MODELS_DIR);

  function describe(model: string): ModelDescription {
    const configPath = join(modelsDir, model, 'config.json');
    const local = existsSync(configPath);
    const config: LocalConfig = local ? (JSON.parse(readFileSync(configPath, 'utf8')) as LocalConfig) : {};
    const source: EmbedModelSource = local ? (model === BUNDLED_EMBED_MODEL ? 'bundled' : 'local-folder') : 'hub';
    return {
      source,
      id: embedderId(model, config.toolmem_static_embedding?.revision),
      dim: config.hidden_size ?? own(KNOWN_HUB_DIMS, model) ?? null,
      sizeBytes: local ? folderBytes(join(modelsDir, model)) : null,
      backend: 'cpu',
      threads: 0,
    };
  }

  return {
    async describe(model) {
      return describe(model);
    },
    async load(model, onProgress): Promise<LoadedModel> {
      const d = describe(model);
      if (d.source === 'hub' && !options.allowNetwork) {
        throw new ModelLoadError(`Model “${model}” is not in ${modelsDir}, and downloading is off`, 'not-found', model);
      }
      try {
        const embedder = createTransformersEmbedder({
          model,
          modelsDir,
          allowNetwork: options.allowNetwork ?? false,
          onLoadProgress: onProgress,
          ...(d.dim ? { dim: d.dim } : {}),
          ...(options.batchSize ? { batchSize: options.batchSize } : {}),
        });
        await embedder.load();
        return { embedder, source: d.source, backend: 'cpu', threads: 0, sizeBytes: d.sizeBytes };
      } catch (err) {
        throw toModelLoadError(err, model, d.source);
      }
    },
  };
}
