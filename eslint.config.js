// @ts-check
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';

/** Everything a workflow must not import as a value: it would break determinism or the sandbox. */
const sandboxBans = [
  ...builtinModules
    .flatMap((m) => [m, `node:${m}`])
    .map((name) => ({
      name,
      message: 'Workflows run in a deterministic sandbox: Node built-ins are not available there.',
    })),
  { name: 'undici', message: 'Workflows do no I/O: network calls belong in activities/.' },
];

export default tseslint.config(
  // a2a/grpc/gen: generated from the vendored protos (npm run generate:grpc), never edited.
  { ignores: ['dist/', 'node_modules/', '.cache/', '.data/', 'coverage/', 'a2a/grpc/gen/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // `interface Task extends z.infer<typeof TaskWire> {}` names a schema's output (a2a/schemas/json.ts says why).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    // The product's exported functions say what they return: readers see the contract without
    // tracing the body, and tsc writes a short name into the .d.ts instead of an inferred expansion.
    files: [
      'a2a/**/*.ts',
      'activities/**/*.ts',
      'contract/**/*.ts',
      'workflows/**/*.ts',
      'worker/**/*.ts',
      'client/**/*.ts',
      'agents/**/*.ts',
      'platform/**/*.ts',
      'telemetry/**/*.ts',
      'storage/**/*.ts',
    ],
    rules: { '@typescript-eslint/explicit-module-boundary-types': 'error' },
  },
  {
    // Import cycles make load order (and the workflow bundle) fragile: none anywhere.
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js'] })] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The sandbox-safe side: workflows and the contract they share with activities and clients.
    files: ['workflows/**/*.ts', 'contract/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: sandboxBans,
          patterns: [
            {
              group: ['**/activities/*', '**/activities', '**/a2a/*', '**/a2a'],
              allowTypeImports: true,
              message: 'Workflows may import only types from activities/ and a2a/ (use `import type`).',
            },
            {
              group: ['node:*'],
              message: 'Workflows run in a deterministic sandbox: Node built-ins are not available there.',
            },
          ],
        },
      ],
    },
  },
  {
    // Workflows are the product's sandbox, not a library for the other layers: what both sides use
    // lives in contract/.
    files: [
      'a2a/**/*.ts',
      'activities/**/*.ts',
      'worker/**/*.ts',
      'client/**/*.ts',
      'platform/**/*.ts',
      'agents/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/workflows/*', '**/workflows'],
              allowTypeImports: true,
              message: 'Import what workflows share from contract/, not from workflows/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The blob store is plain Node under everything that moves bytes (activities, worker, CLI,
    // codec server): it imports none of them, and nothing of workflows or the A2A client.
    files: ['storage/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/workflows/*',
                '**/workflows',
                '**/activities/*',
                '**/activities',
                '**/worker/*',
                '**/worker',
                '**/client/*',
                '**/client',
                '**/agents/*',
                '**/agents',
                '**/a2a/*',
                '**/a2a',
                '@temporalio/workflow',
                '@temporalio/activity',
              ],
              allowTypeImports: true,
              message:
                'storage/ is plain Node under the layers that move bytes: it imports types only from them (values from contract/ and platform/paths).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  // Layout is Prettier's (npm run format): switch off the stylistic rules it would fight with.
  prettier,
);
