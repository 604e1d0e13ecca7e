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
    { group: ['**/db/**', '**/ui/**', '**/rpc/**', '**/cli/**', '**/workers/**', '*.svelte'], message: 'src/core may not import the layers above it.' },
    { group: ['node:*', 'fs', 'path'], message: 'src/core runs in the browser too: no Node built-ins.' },
  ],
};

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
