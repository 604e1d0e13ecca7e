/**
 * Import side of the memory format: text → validated `MemoryFile`, or every problem with its JSON
 * path (`$.tools[0].entries[3].level`). Pure: nothing is stored or changed here, so a rejected file
 * leaves the current memory exactly as it was.
 */
import type { z } from 'zod';
import { ParseError } from '../errors';
import { assertTextFile } from '../import/sniff';
import { clipInput, quote } from '../text/quote';
import { jsonProblem } from './json-text';
import { restoreProtoKeys } from './records';
import { fileSanityIssues, MAX_ISSUES, rawValueIssues, type SanityIssue } from './sanity';
import { MEMORY_FORMAT_KIND, MEMORY_FORMAT_VERSIONS, memoryFileSchema, type MemoryFile } from './schema';

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

/** Keys longer than this are clipped in paths (a key is input too). */
const PATH_KEY_MAX = 100;

export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (typeof p === 'string' && p.length <= PATH_KEY_MAX && /^[A-Za-z_$][\w$]*$/.test(p)) out += `.${p}`;
    else out += `[${JSON.stringify(clipInput(String(p), PATH_KEY_MAX))}]`;
  }
  return out;
}

/** Counts "N problems" from the list, where a closing "… and N more" line counts its N. */
function problemCount(issues: readonly MemoryFileIssue[]): number {
  const last = issues.at(-1);
  const more = last && last.path === '$' ? /^… and ([\d,]+) more problems/.exec(last.message) : null;
  return more ? issues.length - 1 + Number(more[1]!.replace(/,/g, '')) : issues.length;
}

export function formatIssues(issues: readonly MemoryFileIssue[]): string {
  const n = problemCount(issues);
  const head = n === 1 ? 'The memory file has 1 problem' : `The memory file has ${n.toLocaleString('en-US')} problems`;
  return `${head}:\n${issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`;
}

/** At most `MAX_ISSUES` problems, then one line counting the others (`more` already left out). */
export function boundIssues(issues: readonly MemoryFileIssue[], more = 0): MemoryFileIssue[] {
  const rest = Math.max(0, issues.length - MAX_ISSUES) + more;
  if (rest === 0) return [...issues];
  return [
    ...issues.slice(0, MAX_ISSUES),
    { path: '$', message: `… and ${rest.toLocaleString('en-US')} more problems (the first ${Math.min(MAX_ISSUES, issues.length)} are listed)` },
  ];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `string "${clipInput(value)}"`;
  if (typeof value === 'number' && !Number.isFinite(value)) return `number ${value}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${clipInput(String(value))}`;
}

function zodIssues(error: z.ZodError): MemoryFileIssue[] {
  const out: MemoryFileIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: jsonPath([...issue.path, key]), message: `unknown field ${quote(String(key))}` });
    } else if (issue.code === 'invalid_type' && issue.input === undefined) {
      out.push({ path: jsonPath(issue.path), message: `required field is missing (expected ${issue.expected})` });
    } else if (issue.code === 'invalid_type') {
      out.push({ path: jsonPath(issue.path), message: `expected ${issue.expected}, got ${describe(issue.input)}` });
    } else if (issue.code === 'invalid_value' && 'input' in issue) {
      out.push({ path: jsonPath(issue.path), message: `${describe(issue.input)} is not one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` });
    } else if ((issue.code === 'too_big' || issue.code === 'too_small') && typeof issue.input === 'number') {
      out.push({ path: jsonPath(issue.path), message: `${describe(issue.input)}: ${issue.message}` });
    } else {
      out.push({ path: jsonPath(issue.path), message: clipInput(issue.message) });
    }
  }
  return out;
}

/** Cross-field rules the schema cannot express: unique ids, level values, counts, vectors. */
/**
 * Version 2 fields: only in version 2 files; the capability section must agree with itself (cell
 * facet indices in range, cells of known tools, entry ids that exist, model sizes that match).
 */
function capabilityIssues(file: MemoryFile, entryAt: ReadonlyMap<string, string>): MemoryFileIssue[] {
  const out: MemoryFileIssue[] = [];
  if (file.version === 1) {
    file.tools.forEach((t, i) =>
      t.entries.forEach((e, j) => {
        for (const k of ['facet', 'effect', 'verdict'] as const)
          if (e[k] !== undefined) out.push({ path: `$.tools[${i}].entries[${j}].${k}`, message: `'${k}' needs format version 2 (the file says version 1)` });
      }),
    );
    if (file.build.capability) out.push({ path: '$.build.capability', message: "'capability' needs format version 2 (the file says version 1)" });
    return out;
  }
  if (file.version === 2) {
    // Version 3 fields: a tool's profile and the shrunk cell's status / lfsr / raw estimate.
    file.tools.forEach((t, i) =>
      t.entries.forEach((e, j) => {
        if (e.profile !== undefined)
          out.push({ path: `$.tools[${i}].entries[${j}].profile`, message: "'profile' needs format version 3 (the file says version 2)" });
        if (e.effect?.status !== undefined)
          out.push({ path: `$.tools[${i}].entries[${j}].effect.status`, message: "'status' needs format version 3 (the file says version 2)" });
      }),
    );
  }
  if (file.version <= 3) out.push(...version4Issues(file));
  const cap = file.build.capability;
  if (!cap) return out;
  const tools = new Set(cap.tools);
  cap.cells.forEach((c, i) => {
    const path = `$.build.capability.cells[${i}]`;
    if (c.facet >= cap.facets.length) out.push({ path: `${path}.facet`, message: `facet ${c.facet} does not exist (${cap.facets.length} facets)` });
    if (!tools.has(c.toolId)) out.push({ path: `${path}.toolId`, message: `tool ${quote(c.toolId)} is not in build.capability.tools` });
    if (c.entryId !== null && !entryAt.has(c.entryId)) out.push({ path: `${path}.entryId`, message: `entry ${quote(c.entryId)} does not exist` });
  });
  const dim = file.embeddings?.dim;
  cap.facets.forEach((f, i) => {
    if (f.facet.rule.type === 'theme' && !f.centroid)
      out.push({ path: `$.build.capability.facets[${i}].centroid`, message: 'a theme facet needs its centroid (its rule compares task vectors with it)' });
    if (f.centroid && dim !== undefined && f.centroid.length !== dim)
      out.push({ path: `$.build.capability.facets[${i}].centroid`, message: `has ${f.centroid.length} numbers, expected dim ${dim}` });
  });
  const m = cap.model;
  if (m) {
    const T = m.model.tools.length;
    const F = m.model.facets.length;
    const at = '$.build.capability.model';
    if (F !== m.facets.length) out.push({ path: `${at}.model.facets`, message: `has ${F} facets, the model's facet list ${m.facets.length}` });
    const sized: [string, number, number][] = [
      ['model.mu', m.model.mu.length, T],
      ['model.gamma', m.model.gamma.length, T],
      ['model.freq', m.model.freq.length, F],
      ['model.beta', m.model.beta.length, F],
      ['labels', m.labels.length, T],
      ['order', m.order.length, T],
    ];
    for (const [name, got, want] of sized) if (got !== want) out.push({ path: `${at}.${name}`, message: `has ${got} items, expected ${want}` });
    m.model.gamma.forEach((row, j) => row.length !== F && out.push({ path: `${at}.model.gamma[${j}]`, message: `has ${row.length} numbers, expected ${F}` }));
    m.labels.forEach((row, j) => row.length !== F && out.push({ path: `${at}.labels[${j}]`, message: `has ${row.length} labels, expected ${F}` }));
    m.order.forEach((j, i) => j >= T && out.push({ path: `${at}.order[${i}]`, message: `tool index ${j} does not exist (${T} tools)` }));
    m.facets.forEach((f, i) => {
      if (f.facet.rule.type === 'theme' && !f.centroid)
        out.push({ path: `${at}.facets[${i}].centroid`, message: 'a theme facet needs its centroid (its rule compares task vectors with it)' });
    });
    out.push(...modelV4Issues(m, T, F, at));
  }
  cap.leaderboards?.forEach(
    (b, i) =>
      b.facet >= cap.facets.length &&
      out.push({ path: `$.build.capability.leaderboards[${i}].facet`, message: `facet ${b.facet} does not exist (${cap.facets.length} facets)` }),
  );
  cap.picks?.forEach((k, i) => {
    const path = `$.build.capability.picks[${i}]`;
    if (k.facet >= cap.facets.length) out.push({ path: `${path}.facet`, message: `facet ${k.facet} does not exist (${cap.facets.length} facets)` });
    for (const key of ['toolId', 'over'] as const)
      if (!tools.has(k[key])) out.push({ path: `${path}.${key}`, message: `tool ${quote(k[key])} is not in build.capability.tools` });
  });
  return out;
}

/** Version 4 fields in an older file: named, with the version they need. */
function version4Issues(file: MemoryFile): MemoryFileIssue[] {
  const out: MemoryFileIssue[] = [];
  const need = (path: string, key: string) => out.push({ path, message: `'${key}' needs format version 4 (the file says version ${file.version})` });
  file.tools.forEach((t, i) =>
    t.entries.forEach((e, j) => {
      if (e.effect?.latent !== undefined) need(`$.tools[${i}].entries[${j}].effect.latent`, 'latent');
      if (e.effect?.usual !== undefined) need(`$.tools[${i}].entries[${j}].effect.usual`, 'usual');
    }),
  );
  const cap = file.build.capability;
  if (!cap) return out;
  for (const key of ['overall', 'leaderboards', 'picks'] as const) if (cap[key] !== undefined) need(`$.build.capability.${key}`, key);
  for (const key of ['contrastScale', 'detectors', 'pickVerification'] as const)
    if (cap.report[key] !== undefined) need(`$.build.capability.report.${key}`, key);
  for (const key of ['twins', 'detectors', 'textModel', 'picks'] as const) if (cap.model?.[key] !== undefined) need(`$.build.capability.model.${key}`, key);
  return out;
}

/** The version 4 parts of a stored model agree with its sizes: detector weights, the free-text fit, twins and picks in range. */
function modelV4Issues(m: NonNullable<NonNullable<MemoryFile['build']['capability']>['model']>, T: number, F: number, at: string): MemoryFileIssue[] {
  const out: MemoryFileIssue[] = [];
  const d = m.detectors;
  if (d) {
    const P = d.vocabulary.length + d.cues.length + d.dim;
    if (d.vectorMean.length !== d.dim) out.push({ path: `${at}.detectors.vectorMean`, message: `has ${d.vectorMean.length} numbers, expected dim ${d.dim}` });
    d.detectors.forEach(
      (x, i) =>
        x.weights.length !== P &&
        out.push({ path: `${at}.detectors.detectors[${i}].weights`, message: `has ${x.weights.length} numbers, expected ${P} (words, cues, vector)` }),
    );
  }
  const tm = m.textModel;
  if (tm) {
    const sized: [string, number, number][] = [
      ['textModel.mu', tm.mu.length, T],
      ['textModel.gamma', tm.gamma.length, T],
      ['textModel.freq', tm.freq.length, F],
      ['textModel.beta', tm.beta.length, F],
    ];
    for (const [name, got, want] of sized) if (got !== want) out.push({ path: `${at}.${name}`, message: `has ${got} items, expected ${want}` });
    tm.gamma.forEach((row, j) => row.length !== F && out.push({ path: `${at}.textModel.gamma[${j}]`, message: `has ${row.length} numbers, expected ${F}` }));
  }
  m.twins?.forEach(([a, b], i) => (a >= F || b >= F) && out.push({ path: `${at}.twins[${i}]`, message: `facet index out of range (${F} facets)` }));
  m.picks?.forEach((k, i) => {
    if (k.facet >= F) out.push({ path: `${at}.picks[${i}].facet`, message: `facet ${k.facet} does not exist (${F} facets)` });
    if (k.tool >= T || k.over >= T) out.push({ path: `${at}.picks[${i}]`, message: `tool index out of range (${T} tools)` });
  });
  return out;
}

function semanticIssues(file: MemoryFile): MemoryFileIssue[] {
  const out: MemoryFileIssue[] = [];
  const toolAt = new Map<string, number>();
  const entryAt = new Map<string, string>();
  const seeEntry = (entryId: string, path: string) => {
    const first = entryAt.get(entryId);
    if (first !== undefined) out.push({ path, message: `duplicate entry id ${quote(entryId)} (first at ${first})` });
    else entryAt.set(entryId, path);
  };
  file.tools.forEach((tool, i) => {
    const first = toolAt.get(tool.id);
    if (first !== undefined) out.push({ path: `$.tools[${i}].id`, message: `duplicate tool id ${quote(tool.id)} (first at $.tools[${first}].id)` });
    else toolAt.set(tool.id, i);
    const counts = { proficient: 0, good: 0, bad: 0, weak: 0 };
    tool.entries.forEach((e, j) => {
      const base = `$.tools[${i}].entries[${j}]`;
      seeEntry(e.id, `${base}.id`);
      counts[e.level]++;
      if (e.value !== LEVEL_VALUE[e.level])
        out.push({ path: `${base}.value`, message: `value ${e.value} does not match level '${e.level}' (expected ${LEVEL_VALUE[e.level]})` });
    });
    for (const l of Object.keys(counts) as (keyof typeof counts)[]) {
      if (tool.counts[l] !== counts[l])
        out.push({ path: `$.tools[${i}].counts.${l}`, message: `says ${tool.counts[l]} but the tool has ${counts[l]} '${l}' entries` });
    }
  });
  file.history?.forEach((e, j) => {
    seeEntry(e.id, `$.history[${j}].id`);
    if (e.value !== LEVEL_VALUE[e.level])
      out.push({ path: `$.history[${j}].value`, message: `value ${e.value} does not match level '${e.level}' (expected ${LEVEL_VALUE[e.level]})` });
  });
  for (const toolId of Object.keys(file.build.calibration)) {
    if (!toolAt.has(toolId)) out.push({ path: jsonPath(['build', 'calibration', toolId]), message: `calibration for unknown tool ${quote(toolId)}` });
  }
  out.push(...capabilityIssues(file, entryAt));
  const emb = file.embeddings;
  if (emb) {
    if (emb.model !== file.memory.embeddingModel)
      out.push({ path: '$.embeddings.model', message: `${quote(emb.model)} is not the memory's embedding model ${quote(file.memory.embeddingModel)}` });
    for (const [entryId, v] of Object.entries(emb.vectors)) {
      const path = jsonPath(['embeddings', 'vectors', entryId]);
      if (!entryAt.has(entryId)) out.push({ path, message: `vector for unknown entry ${quote(entryId)}` });
      if (v.length !== emb.dim) out.push({ path, message: `has ${v.length} numbers, expected dim ${emb.dim}` });
    }
  }
  return out;
}

/** Issues of `value` against `schema`, with paths under `at`. */
function schemaIssues(schema: z.ZodType, value: unknown, at: readonly PropertyKey[]): MemoryFileIssue[] {
  const r = schema.safeParse(value, { reportInput: true });
  return r.success ? [] : zodIssues(r.error).map((i) => ({ ...i, path: jsonPath(at) + i.path.slice(1) }));
}

const toIssue = (i: SanityIssue): MemoryFileIssue => ({ path: jsonPath(i.path), message: i.message });

/**
 * The schema's parse with record keys `__proto__` kept (zod drops them; see records.ts): the one
 * way a value becomes a `MemoryFile`, for import and for the canonical writer alike.
 */
export function schemaParse(data: unknown): { ok: true; file: MemoryFile } | { ok: false; issues: MemoryFileIssue[] } {
  const parsed = memoryFileSchema.safeParse(data, { reportInput: true });
  const protoIssues = parsed.success ? restoreProtoKeys(data, parsed.data, schemaIssues) : [];
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error) };
  return protoIssues.length ? { ok: false, issues: protoIssues } : { ok: true, file: parsed.data };
}

/** Validates an already-parsed JSON value. */
export function validateMemoryFile(data: unknown): MemoryFileParse {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, issues: [{ path: '$', message: `expected a JSON object (a toolmem-memory file), got ${describe(data)}` }] };
  }
  const top = data as Record<string, unknown>;
  if (top.kind !== MEMORY_FORMAT_KIND) {
    return {
      ok: false,
      issues: [
        {
          path: '$.kind',
          message: `expected '${MEMORY_FORMAT_KIND}', got ${top.kind === undefined ? 'nothing' : describe(top.kind)}: this is not a ToolMem memory file`,
        },
      ],
    };
  }
  if (!(MEMORY_FORMAT_VERSIONS as readonly unknown[]).includes(top.version)) {
    const got =
      top.version === undefined ? '(missing)' : typeof top.version === 'number' && Number.isFinite(top.version) ? String(top.version) : describe(top.version);
    return {
      ok: false,
      issues: [
        {
          path: '$.version',
          message:
            `unsupported version ${got}: this version of ToolMem Studio reads versions ${MEMORY_FORMAT_VERSIONS.slice(0, -1).join(', ')} ` +
            `and ${MEMORY_FORMAT_VERSIONS.at(-1)}`,
        },
      ],
    };
  }
  // Raw-value problems first (overflowed numbers, huge strings, deep nesting); the schema's own
  // complaint about the same value ("expected number") would only repeat them less clearly.
  const raw = rawValueIssues(data);
  const rawIssues = raw.issues.map(toIssue);
  const seen = new Set(rawIssues.map((i) => i.path));
  const parsed = schemaParse(data);
  if (!parsed.ok) return { ok: false, issues: boundIssues([...rawIssues, ...parsed.issues.filter((i) => !seen.has(i.path))], raw.more) };
  const issues = [...rawIssues, ...semanticIssues(parsed.file), ...fileSanityIssues(parsed.file).map(toIssue)];
  return issues.length ? { ok: false, issues: boundIssues(issues, raw.more) } : { ok: true, file: parsed.file };
}

/** The file is text, not gzip/ZIP/UTF-16/binary (the importer's sniff, same messages). */
function notTextIssue(text: string): MemoryFileIssue | null {
  try {
    assertTextFile(text.slice(0, 4096), 'memory file');
    return null;
  } catch (err) {
    if (err instanceof ParseError) return { path: '$', message: err.message };
    throw err;
  }
}

/** Parses the text of a memory file (JSON, optionally with a UTF-8 BOM). */
export function parseMemoryFile(text: string): MemoryFileParse {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const notText = notTextIssue(body);
  if (notText) return { ok: false, issues: [notText] };
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
