/** Display helpers (pure). */

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatDate(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "1 experience", "2 experiences" (English plural by -s, which covers the app's nouns). */
export function formatPlural(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/** A stored memory as Predict names it: "GenAI-Bench memory — built Dec 2, 2026, 12:10 AM · 200 training tasks". */
export function memoryDescription(m: { name: string; builtAt: number; trainTasks: number | null; source: 'build' | 'imported' }): string {
  const when = formatDate(m.builtAt);
  const tasks = m.trainTasks === null ? 'every task of the dataset' : `${formatCount(m.trainTasks)} training task${m.trainTasks === 1 ? '' : 's'}`;
  return `${m.name} — ${m.source === 'imported' ? 'imported' : 'built'} ${when} · ${tasks}`;
}
