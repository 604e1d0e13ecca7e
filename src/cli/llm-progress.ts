/**
 * What `toolmem eval --llm` shows on stderr while it runs, and how Ctrl-C stops it.
 *
 * Progress: one line per second at most (and one at the end), "model calls 120 / 480 (25%),
 * 2.4 calls/s, about 2 min 30 s left — Seed 1: fewshot-llm". The rate is measured over the calls
 * made so far in this run, so the first lines (one slow first call) overestimate the time left.
 *
 * Ctrl-C (SIGINT) during an LLM run: the first one aborts the evaluation (the call in flight is
 * cancelled, what was done is printed, exit code 130); after the last model call it skips the
 * bootstrap intervals and prints the complete results. The handler is removed when the command
 * ends; a second Ctrl-C before that is the shell's ordinary one (the process ends).
 */
import type { EvalProgress } from '../app/evaluate/methods';

/** Exit code of a run stopped by Ctrl-C (128 + SIGINT, the shell convention). */
export const EXIT_INTERRUPTED = 130;

/** "45 s", "2 min 30 s", "1 h 05 min" (whole units: no long decimals). */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** One progress line: calls done of planned, the rate and the time left at that rate. */
export function progressLine(p: EvalProgress, elapsedMs: number): string {
  const calls = p.calls;
  if (!calls || calls.total === 0) return `${p.label}`;
  const pct = Math.floor((100 * calls.done) / calls.total);
  const rate = elapsedMs > 0 ? calls.done / (elapsedMs / 1000) : 0;
  const left = rate > 0 ? duration((calls.total - calls.done) / rate) : '—';
  const rateText = rate >= 10 ? rate.toFixed(0) : rate.toFixed(1);
  return `model calls ${calls.done} / ${calls.total} (${pct}%), ${rateText} calls/s, about ${left} left — ${p.label}`;
}

/** A progress sink that writes at most one line per `everyMs` (and always the last call's). */
export function llmProgress(write: (line: string) => void, opts: { everyMs?: number; now?: () => number } = {}): (p: EvalProgress) => void {
  const now = opts.now ?? Date.now;
  const every = opts.everyMs ?? 1000;
  const start = now();
  let last = -Infinity;
  let lastLabel = '';
  let wroteEnd = false;
  return (p) => {
    const t = now();
    const finished = p.calls !== undefined && p.calls.done === p.calls.total;
    const due = t - last >= every || p.label !== lastLabel || (finished && !wroteEnd);
    if (!due) return;
    last = t;
    lastLabel = p.label;
    wroteEnd ||= finished;
    write(progressLine(p, t - start));
  };
}

/**
 * Ctrl-C for one command: `signal` fires on SIGINT once `arm` was called (an LLM run), until
 * `dispose`. Before `arm`, Ctrl-C keeps its ordinary meaning (the process ends at once).
 */
export function sigintInterrupt(onInterrupt?: () => void): { signal: AbortSignal; arm(): void; dispose(): void } {
  const controller = new AbortController();
  let armed = false;
  const handler = () => {
    onInterrupt?.();
    controller.abort(new Error('interrupted (Ctrl-C)'));
  };
  return {
    signal: controller.signal,
    arm() {
      if (armed) return;
      armed = true;
      process.once('SIGINT', handler);
    },
    dispose() {
      if (armed) process.removeListener('SIGINT', handler);
      armed = false;
    },
  };
}
