/**
 * A small dataset with effects a capability build must find: 60 tasks × 3 tools, the first 20
 * tagged `negation` (and written with "no"). Tool A is strong elsewhere and weak on negation, B
 * holds up better than the others there, C is flat. Scores carry a fixed ±1 pattern so that
 * intervals are finite. As CSV for the generic import (prompt, tool, score, category, id).
 */
export const CAPABILITY_TOOLS = ['A', 'B', 'C'] as const;

export function capabilityCsv(): string {
  const rows = ['id,prompt,tool,score,category'];
  for (let t = 0; t < 60; t++) {
    const neg = t < 20;
    const id = `t${String(t).padStart(2, '0')}`;
    const prompt = neg ? `A vase with no flowers, number ${t}` : `A red vase on a table, number ${t}`;
    const noise = ((t * 7) % 3) - 1;
    const base = { A: neg ? 2 : 4, B: neg ? 4 : 3, C: 3 };
    for (const tool of CAPABILITY_TOOLS) {
      const score = Math.min(5, Math.max(1, base[tool] + (tool === 'C' ? noise : noise * (t % 2))));
      rows.push(`${id},"${prompt}",${tool},${score},${neg ? 'negation' : 'plain'}`);
    }
  }
  return `${rows.join('\n')}\n`;
}
