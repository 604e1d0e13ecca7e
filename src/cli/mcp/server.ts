/**
 * The ToolMem MCP server: a memory file served over the Model Context Protocol. Tools:
 *  - list_tools                      → the memory's tools (name, modality, description, entry counts, calibration)
 *  - recall(tool, task, k?)          → the k most similar valid entries of each level, with similarity
 *  - predict_score(tool, task)       → the calibrated memory prediction and the entries behind it
 *  - select_tool(task, candidates[]) → candidates ranked by predicted score (selectForTask)
 * Scores come from `MemoryFilePredictor` (the numeric memory predictor with the file's calibration);
 * tasks and, when the file carries no vectors of the same model, entries are embedded with the
 * given embedder (the CLI passes the app's offline embedder).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Embedder } from '../../core/embed';
import { fileVectors, memoryEntriesOf, MemoryFilePredictor, type MemoryFile } from '../../core/memory-format';
import { selectForTask } from '../../core/predict';
import { LEVELS, type MemoryEntry } from '../../core/types';

export interface ToolMemMcp {
  server: McpServer;
  predictor: MemoryFilePredictor;
  /** Whether the entry vectors came from the file (true) or were embedded at start (false). */
  vectorsFromFile: boolean;
}

async function embedAll(embedder: Embedder, texts: readonly string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const batch = await embedder.embed(texts);
  return texts.map((_, i) => batch.data.slice(i * batch.dim, (i + 1) * batch.dim));
}

const json = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value, null, 2) }] });
const fail = (message: string) => ({ content: [{ type: 'text' as const, text: message }], isError: true });

export async function createToolMemMcp(file: MemoryFile, embedder: Embedder, opts: { name?: string; version?: string } = {}): Promise<ToolMemMcp> {
  if (embedder.id !== file.memory.embeddingModel) {
    throw new Error(`The memory was embedded with '${file.memory.embeddingModel}' but the embedder is '${embedder.id}'; retrieval needs the same model.`);
  }
  const entries = memoryEntriesOf(file);
  let vectors = fileVectors(file, embedder.id);
  const vectorsFromFile = vectors !== null && entries.every((e) => vectors!.has(e.id));
  if (!vectorsFromFile) {
    const list = await embedAll(embedder, entries.map((e) => e.text));
    vectors = new Map(entries.map((e, i) => [e.id, list[i]!]));
  }
  const predictor = new MemoryFilePredictor(file, { entries, vectors: vectors! });
  const toolIds = new Set(file.tools.map((t) => t.id));
  const byId = new Map<string, MemoryEntry>(entries.map((e) => [e.id, e]));
  const taskOf = async (text: string) => ({ taskId: 'query', prompt: text, vector: (await embedAll(embedder, [text]))[0]! });
  const unknownTool = (t: string) => fail(`Unknown tool '${t}'. Tools in this memory: ${[...toolIds].join(', ')}.`);
  const round = (x: number) => Math.round(x * 1e4) / 1e4;

  const server = new McpServer({ name: opts.name ?? 'toolmem', version: opts.version ?? '0.1.0' });

  server.registerTool(
    'list_tools',
    { description: 'The tools this capability memory knows, with how many entries of each level (proficient, good, bad, weak) it holds about each.' },
    async () =>
      json({
        memory: { id: file.memory.id, name: file.memory.name, embeddingModel: file.memory.embeddingModel, scale: file.build.scale },
        tools: file.tools.map((t) => ({ id: t.id, name: t.name, modality: t.modality, description: t.description, counts: t.counts, calibration: file.build.calibration[t.id] ?? null })),
      }),
  );

  server.registerTool(
    'recall',
    {
      description: "Recall what the memory says about a tool for a task: the k most similar entries of each level (proficient, good, bad, weak) with their cosine similarity to the task.",
      inputSchema: { tool: z.string().describe('tool id, as listed by list_tools'), task: z.string().min(1).describe('the task / prompt'), k: z.number().int().min(1).max(50).optional().describe('entries per level (default 5)') },
    },
    async ({ tool, task, k }) => {
      if (!toolIds.has(tool)) return unknownTool(tool);
      const t = await taskOf(task);
      const hits = new MemoryFilePredictor(file, { entries, vectors: vectors! }, { k: k ?? 5 }).retriever.retrieve(t, tool);
      const levels = Object.fromEntries(
        LEVELS.map((l) => [l, hits.filter((h) => h.entry.level === l).map((h) => ({ id: h.entry.id, text: h.entry.text, similarity: round(h.similarity), support: h.entry.support }))]),
      );
      return json({ tool, task, levels });
    },
  );

  server.registerTool(
    'predict_score',
    {
      description: "Predict the tool's score on the task from the memory: the tool's calibrated mean plus the similarity-weighted level signal of the retrieved entries, with those entries as evidence.",
      inputSchema: { tool: z.string(), task: z.string().min(1) },
    },
    async ({ tool, task }) => {
      if (!toolIds.has(tool)) return unknownTool(tool);
      const p = predictor.explain(await taskOf(task), tool);
      return json({
        tool,
        score: round(p.score),
        clamped: p.clamped,
        scale: file.build.scale,
        signal: round(p.signal),
        mean: round(p.mean),
        slope: round(p.slope),
        evidence: p.evidence.map((e) => {
          const entry = byId.get(e.id)!;
          return { id: e.id, level: entry.level, text: entry.text, similarity: round(e.similarity) };
        }),
      });
    },
  );

  server.registerTool(
    'select_tool',
    {
      description: 'Rank candidate tools for a task by their predicted scores (best first); `choice` is null on an exact tie.',
      inputSchema: { task: z.string().min(1), candidates: z.array(z.string()).min(1).describe('tool ids to choose from') },
    },
    async ({ task, candidates }) => {
      const unknown = candidates.filter((c) => !toolIds.has(c));
      if (unknown.length) return unknownTool(unknown.join(', '));
      const sel = selectForTask(predictor, await taskOf(task), [...new Set(candidates)], { direction: file.build.scale.direction });
      return json({
        task,
        choice: sel.choice,
        ranked: sel.ranked.map((r) => ({ tool: r.toolId, score: round(r.score), evidence: sel.predictions[r.toolId]!.evidence.slice(0, 3).map((e) => ({ id: e.id, similarity: round(e.similarity) })) })),
      });
    },
  );

  return { server, predictor, vectorsFromFile };
}
