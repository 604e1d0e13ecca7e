/**
 * Import side of the memory format: text → validated `MemoryFile`, or every problem with its JSON
 * path (`$.tools[0].entries[3].level`). Pure: nothing is stored or changed here, so a rejected file
 * leaves the current memory exactly as it was.
 */
import type { z } from 'zod';
import { MEMORY_FORMAT_KIND, MEMORY_FORMAT_VERSION, memoryFileSchema, type MemoryFile } from './schema';

export interface MemoryFileIssue {
  /** JSON path of the offending value, `$` for the whole document. */
  path: string;
  message: string;
}

export type MemoryFileParse = { ok: true; file: MemoryFile } | { ok: false; issues: MemoryFileIssue[] };

const LEVEL_VALUE = { proficient: 2, good: 1, bad: -1, weak: -2 } as const;

export class MemoryFileError extends Error {
  override name = 'MemoryFileError';
  constructor(readonly issues: readonly MemoryFileIssue[]) {
    super(formatIssues(issues));
  }
}

export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (typeof p === 'string' && /^[A-Za-z_$][\w$]*$/.test(p)) out += `.${p}`;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out;
}

export function formatIssues(issues: readonly MemoryFileIssue[]): string {
  const head = issues.length === 1 ? 'The memory file has 1 problem' : `The memory file has ${issues.length} problems`;
  return `${head}:\n${issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`;
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

function jsonProblem(text: string, err: Error): MemoryFileIssue {
  const msg = err.message;
  const at = /position (\d+)/.exec(msg);
  if (/end of JSON input|Unterminated string/i.test(msg) || (at && Number(at[1]) >= text.trimEnd().length)) {
    return { path: '$', message: `Truncated JSON: the file ends (character ${text.length}, ${lineColumn(text, text.length)}) before the top-level object is closed.` };
  }
  const where = at ? ` (${lineColumn(text, Number(at[1]))})` : '';
  return { path: '$', message: `Invalid JSON${where}: ${msg}` };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

function zodIssues(error: z.ZodError): MemoryFileIssue[] {
  const out: MemoryFileIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: jsonPath([...issue.path, key]), message: `unknown field '${key}'` });
    } else if (issue.code === 'invalid_type' && issue.input === undefined) {
      out.push({ path: jsonPath(issue.path), message: `required field is missing (expected ${issue.expected})` });
    } else if (issue.code === 'invalid_type') {
      out.push({ path: jsonPath(issue.path), message: `expected ${issue.expected}, got ${describe(issue.input)}` });
    } else if (issue.code === 'invalid_value' && 'input' in issue) {
      out.push({ path: jsonPath(issue.path), message: `${describe(issue.input)} is not one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` });
    } else {
      out.push({ path: jsonPath(issue.path), message: issue.message });
    }
  }
  return out;
}

/** Cross-field rules the schema cannot express: unique ids, level values, counts, vectors. */
function semanticIssues(file: MemoryFile): MemoryFileIssue[] {
  const out: MemoryFileIssue[] = [];
  const toolAt = new Map<string, number>();
  const entryAt = new Map<string, string>();
  const seeEntry = (entryId: string, path: string) => {
    const first = entryAt.get(entryId);
    if (first !== undefined) out.push({ path, message: `duplicate entry id '${entryId}' (first at ${first})` });
    else entryAt.set(entryId, path);
  };
  file.tools.forEach((tool, i) => {
    const first = toolAt.get(tool.id);
    if (first !== undefined) out.push({ path: `$.tools[${i}].id`, message: `duplicate tool id '${tool.id}' (first at $.tools[${first}].id)` });
    else toolAt.set(tool.id, i);
    const counts = { proficient: 0, good: 0, bad: 0, weak: 0 };
    tool.entries.forEach((e, j) => {
      const base = `$.tools[${i}].entries[${j}]`;
      seeEntry(e.id, `${base}.id`);
      counts[e.level]++;
      if (e.value !== LEVEL_VALUE[e.level]) out.push({ path: `${base}.value`, message: `value ${e.value} does not match level '${e.level}' (expected ${LEVEL_VALUE[e.level]})` });
    });
    for (const l of Object.keys(counts) as (keyof typeof counts)[]) {
      if (tool.counts[l] !== counts[l]) out.push({ path: `$.tools[${i}].counts.${l}`, message: `says ${tool.counts[l]} but the tool has ${counts[l]} '${l}' entries` });
    }
  });
  file.history?.forEach((e, j) => {
    seeEntry(e.id, `$.history[${j}].id`);
    if (e.value !== LEVEL_VALUE[e.level]) out.push({ path: `$.history[${j}].value`, message: `value ${e.value} does not match level '${e.level}' (expected ${LEVEL_VALUE[e.level]})` });
  });
  for (const toolId of Object.keys(file.build.calibration)) {
    if (!toolAt.has(toolId)) out.push({ path: jsonPath(['build', 'calibration', toolId]), message: `calibration for unknown tool '${toolId}'` });
  }
  const emb = file.embeddings;
  if (emb) {
    if (emb.model !== file.memory.embeddingModel) out.push({ path: '$.embeddings.model', message: `'${emb.model}' is not the memory's embedding model '${file.memory.embeddingModel}'` });
    for (const [entryId, v] of Object.entries(emb.vectors)) {
      const path = jsonPath(['embeddings', 'vectors', entryId]);
      if (!entryAt.has(entryId)) out.push({ path, message: `vector for unknown entry '${entryId}'` });
      if (v.length !== emb.dim) out.push({ path, message: `has ${v.length} numbers, expected dim ${emb.dim}` });
    }
  }
  return out;
}

/** Validates an already-parsed JSON value. */
export function validateMemoryFile(data: unknown): MemoryFileParse {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, issues: [{ path: '$', message: `expected a JSON object (a toolmem-memory file), got ${describe(data)}` }] };
  }
  const top = data as Record<string, unknown>;
  if (top.kind !== MEMORY_FORMAT_KIND) {
    return { ok: false, issues: [{ path: '$.kind', message: `expected '${MEMORY_FORMAT_KIND}', got ${top.kind === undefined ? 'nothing' : describe(top.kind)}: this is not a ToolMem memory file` }] };
  }
  if (top.version !== MEMORY_FORMAT_VERSION) {
    return {
      ok: false,
      issues: [{ path: '$.version', message: `unsupported version ${top.version === undefined ? '(missing)' : JSON.stringify(top.version)}: this version of ToolMem Studio reads version ${MEMORY_FORMAT_VERSION}` }],
    };
  }
  const parsed = memoryFileSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error) };
  const issues = semanticIssues(parsed.data);
  return issues.length ? { ok: false, issues } : { ok: true, file: parsed.data };
}

/** Parses the text of a memory file (JSON, optionally with a UTF-8 BOM). */
export function parseMemoryFile(text: string): MemoryFileParse {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') return { ok: false, issues: [{ path: '$', message: 'The file is empty.' }] };
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (err) {
    return { ok: false, issues: [jsonProblem(body, err as Error)] };
  }
  return validateMemoryFile(data);
}

/** `parseMemoryFile`, throwing a `MemoryFileError` (its message lists every problem). */
export function readMemoryFile(text: string): MemoryFile {
  const r = parseMemoryFile(text);
  if (!r.ok) throw new MemoryFileError(r.issues);
  return r.file;
}
