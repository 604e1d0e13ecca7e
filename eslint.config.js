import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import svelteConfig from './svelte.config.js';

// Layer boundaries (like excalidraw's package boundaries): core is pure domain code that runs in
// the browser, in workers and in Node, so it may not import storage, UI, DOM-only or model libraries.
const CORE_FORBIDDEN = {
  paths: [
    { name: 'dexie', message: 'src/core is pure: storage belongs in src/db.' },
    { name: 'svelte', message: 'src/core is pure: UI belongs in src/ui.' },
    { name: 'chart.js', message: 'src/core is pure: charts belong in src/ui.' },
    { name: '@huggingface/transformers', message: 'src/core is pure: models are hosted by workers.' },
    { name: '@mlc-ai/web-llm', message: 'src/core is pure: models are hosted by workers.' },
    { name: '@wllama/wllama', message: 'src/core is pure: models are hosted by workers.' },
  ],
  patterns: [
    { group: ['svelte/*', 'dexie/*'], message: 'src/core is pure.' },
    {
      group: ['**/db/**', '**/ui/**', '**/rpc/**', '**/cli/**', '**/workers/**', '**/app/**', '**/platform/**', '**/model-host/**', '*.svelte'],
      message: 'src/core may not import the layers above it.',
    },
    { group: ['node:*', 'fs', 'path'], message: 'src/core runs in the browser too: no Node built-ins.' },
  ],
};

// Keys that come from data (tool, task, rater, category, dataset and column names, JSON keys) may
// be `__proto__`, `constructor`, `toString`, …: on a plain object they read inherited members or
// replace the prototype (issue #14). Data-keyed collections are Maps, or null-prototype objects from
// src/core/data-keys.ts (`dict`, `dictFrom`, read with `own`). These selectors reject the patterns
// that built plain-object dictionaries; tests/unit/arch/data-keys.test.ts proves they fire.
const DATA_KEYS_MESSAGE =
  'Plain object used as a dictionary: data keys like `__proto__` or `toString` break it (issue #14). Use a Map, or dict()/dictFrom()/own() from src/core/data-keys.ts.';
const DATA_KEY_SELECTORS = [
  // obj[key] ??= …  /  obj[key] ||= …
  "AssignmentExpression[operator=/^(\\?\\?|\\|\\|)=$/][left.type='MemberExpression'][left.computed=true][left.property.type!='Literal']",
  // {} as Record<…>
  "TSAsExpression[expression.type='ObjectExpression'][expression.properties.length=0][typeAnnotation.typeName.name='Record']",
  // const x: Record<string, …> = {}
  "VariableDeclarator[init.type='ObjectExpression'][init.properties.length=0][id.typeAnnotation.typeAnnotation.typeName.name='Record']",
  // $state<Record<string, …>>({}) and any other generic call seeded with an empty Record
  "CallExpression[arguments.0.type='ObjectExpression'][arguments.0.properties.length=0][typeArguments.params.0.typeName.name='Record']",
].map((selector) => ({ selector, message: DATA_KEYS_MESSAGE }));

export default tseslint.config(
  { ignores: ['dist/', 'dist-*/', '.bench/', '.scratch/', 'dev-dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'public/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'svelte/no-at-html-tags': 'error', // imported text is untrusted: never render it as HTML
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { projectService: true, extraFileExtensions: ['.svelte'], parser: tseslint.parser, svelteConfig } },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.svelte', 'workers/**/*.ts'],
    // memory-format/ and cli/mcp/ write data-keyed records through records.ts (`setOwn`, `ownRecord`,
    // checked by tests/unit/memory-format/bad-memory.test.ts), which the selectors cannot tell apart.
    ignores: ['src/core/memory-format/**', 'src/cli/mcp/**'],
    rules: { 'no-restricted-syntax': ['error', ...DATA_KEY_SELECTORS] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', CORE_FORBIDDEN] },
  },
  {
    files: ['src/db/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/ui/**', '*.svelte', 'svelte'], message: 'src/db may not import the UI.' }] }],
    },
  },
);
