/** The `toolmem-memory` JSON format: schema, import with JSON-path errors, canonical export, merge. */
export * from './schema';
export * from './parse';
export * from './serialize';
export * from './merge';
export * from './predictor';
export * from './stored';
export * from './import-plan';
export * from './file-parts';
export * from './records';
export * from './sanity';
export * from './legacy-evidence';
