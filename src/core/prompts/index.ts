/** Every prompt template of the product, in one module (our own wording). */
export * from './shared';
export * from './update';
export * from './critique';
export * from './feedback';
export * from './predict';
export * from './aliases';
