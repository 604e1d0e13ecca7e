// Runs before the app's modules (a classic script in index.html): zod compiles fast parsers with
// `new Function` unless told not to, and probes for it when a schema is built — which the page's
// Content-Security-Policy (no 'unsafe-eval') refuses and reports as a violation on every load.
// `jitless` skips the probe; parsing is as correct, marginally slower. zod reads this object as its
// global config (zod/v4/core: globalThis.__zod_globalConfig); workers have no such policy.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });
