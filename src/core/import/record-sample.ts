/**
 * A bounded copy of a record for the dialog's path picker: the preview sends the first records to
 * the UI thread, and a record may hold a 20 MB string or 100,000 keys. Texts are clipped, and
 * arrays, objects and depth are capped; what the picker lists (paths and examples) stays right
 * for everything it keeps.
 */
const MAX_TEXT = 200;
const MAX_ITEMS = 5;
const MAX_KEYS = 100;
const MAX_DEPTH = 8;

export function sampleRecord(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => sampleRecord(v, depth + 1));
  // Defined, not assigned: a `__proto__` key stays a key (core/data-keys).
  return Object.fromEntries(
    Object.entries(value)
      .slice(0, MAX_KEYS)
      .map(([k, v]) => [k, sampleRecord(v, depth + 1)]),
  );
}
