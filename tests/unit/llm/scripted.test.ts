/** ScriptedEngine replay (from a fixture recording), RecordingEngine, SSE parsing, JSON extraction. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimateTokens, LlmHttpError, parseJsonReply, RecordingEngine, ScriptedEngine, ScriptExhaustedError, SseParser } from '../../../src/core/llm';
import { buildMetrics, createBuildRun, InMemoryMemoryRepository, runBuild } from '../../../src/core/memory';
import { buildConfigFor, experience, hashEmbedder } from '../memory/helpers';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/llm/${name}`, import.meta.url), 'utf8'));

describe('ScriptedEngine', () => {
  it('replays a recorded session through a build, in order, checking each request', async () => {
    const engine = ScriptedEngine.fromRecording(fixture('update-session.json'));
    const exps = [
      experience(1, { prompt: 'three cats on a sofa', score: 2 }),
      experience(2, { prompt: 'a lighthouse in a storm', score: 2, feedback: undefined }),
      experience(3, { prompt: 'a teapot', score: 4 }),
    ];
    const data = new Map([['ToolA', exps]]);
    const repo = new InMemoryMemoryRepository();
    const run = await runBuild(createBuildRun('r', buildConfigFor(['ToolA'], { engine: engine.id }, { feedback: true }), data, 0), {
      repo,
      engine,
      embedder: hashEmbedder(),
      experiences: data,
    });
    expect(run.state).toBe('completed');
    expect(engine.remaining).toBe(0);
    const all = await repo.allEntries('m1');
    expect(all.map((e) => [e.level, e.text, e.validTo === null, e.evidence])).toEqual([
      ['bad', 'Struggles to show an exact number of objects', false, [exps[0]!.id]],
      ['weak', 'Fails to show an exact number of objects, and drops secondary scene elements', true, [exps[0]!.id, exps[1]!.id]],
    ]);
    expect(buildMetrics(run)).toMatchObject({
      applied: 2,
      generatedFeedback: 1,
      skipped: [{ experienceId: exps[2]!.id, error: expect.stringMatching(/^update: The reply is not valid JSON/) as unknown }],
    });
  });

  it('fails clearly when the script runs out or a request does not match', async () => {
    const e = new ScriptedEngine([{ text: 'a', expect: 'needle' }]);
    await expect(e.chat([{ role: 'user', content: 'haystack' }])).rejects.toThrow(/expected the request to contain "needle"/);
    await expect(e.chat([{ role: 'user', content: 'x' }])).rejects.toThrow(ScriptExhaustedError);
    const http = new ScriptedEngine([{ httpError: { status: 503, body: 'busy' } }]);
    await expect(http.chat([{ role: 'user', content: 'x' }])).rejects.toMatchObject({ name: 'LlmHttpError', status: 503 });
    expect(new LlmHttpError('x', 503).retryable).toBe(true);
  });

  it('streams replies in order and records them as a fixture', async () => {
    const inner = new ScriptedEngine(['{"operations": []}', 'second reply']);
    const rec = new RecordingEngine(inner);
    const tokens: string[] = [];
    const out = await rec.chat([{ role: 'user', content: 'hi' }], { onToken: (t) => tokens.push(t) });
    expect(tokens.join('')).toBe('{"operations": []}');
    expect(out.completionTokens).toBe(estimateTokens('{"operations": []}'));
    await rec.chat([{ role: 'user', content: 'again' }]);
    const replay = ScriptedEngine.fromRecording(JSON.parse(JSON.stringify(rec.recording())));
    expect((await replay.chat([])).text).toBe('{"operations": []}');
    expect((await replay.chat([])).text).toBe('second reply');
    expect(inner.calls.map((c) => c.messages[0]!.content)).toEqual(['hi', 'again']);
  });
});

describe('SSE parser', () => {
  it('joins data lines, handles CR/LF/CRLF split anywhere, ignores comments and other fields', () => {
    const text = ': hi\r\nevent: x\r\ndata: a\r\ndata: b\r\n\r\ndata:c\n\ndata: d\r\r';
    for (let cut = 0; cut <= text.length; cut++) {
      const p = new SseParser();
      const out = [...p.push(text.slice(0, cut)), ...p.push(text.slice(cut)), ...p.end()];
      expect(out, `cut at ${cut}`).toEqual(['a\nb', 'c', 'd']);
    }
    const p = new SseParser();
    expect([...p.push('data: last'), ...p.end()]).toEqual(['last']);
  });
});

describe('parseJsonReply', () => {
  it('accepts bare JSON, a fenced block, or the first balanced object after prose', () => {
    expect(parseJsonReply(' {"a": 1} ')).toEqual({ a: 1 });
    expect(parseJsonReply('Here:\n```json\n{"a": [1, 2]}\n```\nDone.')).toEqual({ a: [1, 2] });
    expect(parseJsonReply('Sure! {"a": "}{"} and more')).toEqual({ a: '}{' });
    expect(() => parseJsonReply('{"a": ')).toThrow(/not valid JSON/);
    expect(() => parseJsonReply('')).toThrow(/empty/);
  });
});
