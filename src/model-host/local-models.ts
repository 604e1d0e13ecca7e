/**
 * GGUF files the user picked from disk, kept in the origin-private file system (OPFS) so that a
 * build using them can resume after a reload without asking for the file again. Works in workers
 * (the llm worker reads them) and the page. Names are sanitised: they come from the user's disk.
 */
import { ValidationError } from '../core/errors';
import type { LocalModelFile } from './llm-api';

const DIR = 'gguf-models';

async function modelsDir(): Promise<FileSystemDirectoryHandle> {
  if (!navigator.storage?.getDirectory)
    throw new ValidationError('This browser cannot keep model files (no origin-private file system); load the model from a URL instead.');
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(DIR, { create: true });
}

/** A safe file name: the last path part, no control characters, at most 120 characters. */
export function safeModelName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(-120);
  if (!clean || clean === '.' || clean === '..') throw new ValidationError(`'${name}' is not a usable file name.`);
  return clean;
}

/** GGUF files start with the magic bytes "GGUF". */
export async function isGguf(blob: Blob): Promise<boolean> {
  const head = new Uint8Array(await blob.slice(0, 4).arrayBuffer());
  return head.length === 4 && String.fromCharCode(...head) === 'GGUF';
}

export async function saveModelFile(file: File, onProgress?: (p: { loadedBytes: number; totalBytes: number }) => void): Promise<LocalModelFile> {
  if (!(await isGguf(file)))
    throw new ValidationError(`${safeModelName(file.name)} is not a GGUF model file (it does not start with "GGUF"). wllama loads llama.cpp GGUF files.`);
  const name = safeModelName(file.name);
  const dir = await modelsDir();
  const handle = await dir.getFileHandle(name, { create: true });
  const writable = await handle.createWritable();
  const total = file.size;
  let done = 0;
  const step = 16 * 1024 * 1024;
  try {
    for (let at = 0; at < total; at += step) {
      const chunk = file.slice(at, Math.min(total, at + step));
      await writable.write(chunk);
      done += chunk.size;
      onProgress?.({ loadedBytes: done, totalBytes: total });
    }
    await writable.close();
  } catch (err) {
    await writable.abort().catch(() => undefined);
    await dir.removeEntry(name).catch(() => undefined);
    throw err;
  }
  return { name, bytes: total };
}

export async function openModelFile(name: string): Promise<File> {
  const dir = await modelsDir();
  try {
    const handle = await dir.getFileHandle(safeModelName(name));
    return await handle.getFile();
  } catch {
    throw new ValidationError(`The model file ${name} is no longer stored in this browser; pick it again in Settings.`);
  }
}

export async function listModelFiles(): Promise<LocalModelFile[]> {
  const dir = await modelsDir();
  const out: LocalModelFile[] = [];
  for await (const [name, handle] of dir.entries()) {
    if (handle.kind === 'file') out.push({ name, bytes: (await (handle as FileSystemFileHandle).getFile()).size });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

export async function deleteModelFile(name: string): Promise<boolean> {
  const dir = await modelsDir();
  try {
    await dir.removeEntry(safeModelName(name));
    return true;
  } catch {
    return false;
  }
}
