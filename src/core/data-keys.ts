/**
 * Objects keyed by data. Tool ids, task ids, raters, categories, column names and JSON keys come
 * from files the user imports, so any of them may be `__proto__`, `constructor`, `toString`, … On a
 * plain object (`{}`) such a key reads an inherited member (`o.toString` is a function, `'valueOf'
 * in o` is true) and `o.__proto__ = x` replaces the prototype instead of storing a value — issue
 * #14: a CSV with those tool names lost half its tools and left NaN on `Object.prototype`.
 *
 * Rule (guarded by tests/unit/arch/data-keys.test.ts and eslint.config.js): inside the program,
 * data-keyed collections are `Map`s. Where a JSON-shaped object must remain (CLI `--json` output,
 * stored rows, RPC replies), it is built here with a null prototype and read with `own`, which
 * also covers objects that lost their null prototype in a structured clone or `JSON.parse`.
 */

/** A string-keyed dictionary; made by `dict`/`dictFrom` (null prototype), read with `own`. */
export type Dict<T> = { [key: string]: T };

/** An empty dictionary with no prototype: every key, `__proto__` included, is an ordinary own property. */
export function dict<T>(): Dict<T> {
  return Object.create(null) as Dict<T>;
}

/** A null-prototype dictionary of `entries` (a Map, or pairs): the output boundary of a Map. */
export function dictFrom<T>(entries: Iterable<readonly [string, T]>): Dict<T> {
  const out = dict<T>();
  for (const [key, value] of entries) out[key] = value;
  return out;
}

/**
 * The value `obj` holds under `key` as an OWN property, else undefined — never an inherited one
 * (`own({}, 'toString')` is undefined). Safe on any object, whatever its prototype.
 */
export function own<T>(obj: Readonly<Dict<T>> | undefined | null, key: string): T | undefined {
  return obj != null && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** The own entries of a dictionary as a Map (the way in, from a stored or parsed JSON object). */
export function mapOf<T>(obj: Readonly<Dict<T>> | undefined | null): Map<string, T> {
  return new Map(obj == null ? [] : Object.entries(obj));
}
