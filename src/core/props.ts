/**
 * Reading members of values whose types we do not own — library objects with undeclared fields
 * (transformers.js pipelines), browser APIs newer than our lib.dom (`navigator.gpu`) — without a
 * double cast through `unknown`: every read answers `unknown`, and the caller narrows it with `typeof` /
 * `instanceof` or a type guard before use, so a library change shows up as a failed check rather
 * than a wrong type. Inherited members count (a getter on a prototype, as `navigator.gpu` is),
 * unlike `own()` in data-keys.ts, which is for objects keyed by user data; keys here are constants.
 */

/** `obj[key]` when `obj` is an object or a function, else undefined. */
export function prop(obj: unknown, key: string): unknown {
  if (obj === null || (typeof obj !== 'object' && typeof obj !== 'function')) return undefined;
  const value: unknown = Reflect.get(obj, key);
  return value;
}
