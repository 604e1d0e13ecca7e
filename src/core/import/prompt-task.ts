/**
 * Task ids for files without an id column (issue #27): rows that ask the same thing are one task,
 * so that the tools answering it can be compared. "The same" is the prompt with case, surrounding
 * and repeated white space ignored; the id is `p-` and a 64-bit FNV-1a hash of that text (two
 * 32-bit halves), short enough to show and stable across imports of the same prompts.
 */

export function normalisePrompt(prompt: string): string {
  return prompt.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

function fnv1a(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** `p-<16 hex digits>` for a prompt, or '' for an empty one (validation then reports the prompt). */
export function promptTaskId(prompt: string): string {
  const text = normalisePrompt(prompt);
  if (text === '') return '';
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `p-${hex(fnv1a(text, 0x811c9dc5))}${hex(fnv1a(text, 0x050c5d1f))}`;
}
