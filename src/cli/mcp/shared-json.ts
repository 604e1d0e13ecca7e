/**
 * JSON text of answers whose large parts are shared objects (issue #36: the select path serialises
 * the same contribution lines for every request with a repeated task text). An object marked with
 * `share()` is read-only from then on; its JSON text is made on first use and kept while the object
 * lives (WeakMap), and `stringify` splices it in instead of serialising it again. The result is
 * byte for byte what JSON.stringify gives (tests/unit/mcp/shared-json.test.ts): the same key order
 * (Object.keys), `undefined` / functions / symbols left out of objects and written `null` in arrays,
 * toJSON honoured (such values go to JSON.stringify whole).
 */

const marked = new WeakSet<object>();
const texts = new WeakMap<object, string>();

/** Marks `value` (an object or array never changed again) as shared; returns it. */
export function share<T>(value: T): T {
  if (value !== null && typeof value === 'object') marked.add(value);
  return value;
}

const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

function write(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (marked.has(value)) {
    let text = texts.get(value);
    if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
    return text;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + (skipped(value[i]) ? 'null' : write(value[i]));
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (skipped(v)) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${write(v)}`;
    first = false;
  }
  return `${out}}`;
}

/** JSON.stringify(value), with the text of shared parts reused. */
export function stringify(value: unknown): string {
  return skipped(value) ? (JSON.stringify(value) as string) : write(value);
}
