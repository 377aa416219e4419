// ESLint: typescript-eslint's recommended rules plus a few house rules, and the direction of imports between
// the rooms of handlers/ and db/ (handlers/README.md, db/README.md): each room may import only the rooms below it.
import tseslint from 'typescript-eslint';

/**
 * One room's imports that go the wrong way, as regular expressions over the import's text (every import inside
 * the repository is relative). A later entry for the same files replaces an earlier one, so each names all of
 * its room's refusals.
 */
const forbidImports = (files, refusals) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: refusals.map(([regex, message]) => ({ regex, message })) }],
  },
});

const HANDLERS = ['(^|/)handlers/', 'db/ is the layer below handlers/: it never imports it (db/README.md).'];

export default tseslint.config(
  // .scratch/: local experiments, never committed (.gitignore).
  { ignores: ['node_modules/', 'generated/', '.hedgerow-data/', '.hedgerow-build*/', '.scratch/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      curly: ['error', 'multi-line'],
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  forbidImports(['db/**/*.ts'], [HANDLERS]),
  forbidImports(
    ['db/core/**/*.ts'],
    [['^\\.\\./(?!\\.\\./generated/)', 'db/core/ is the bottom layer: it imports only itself and generated/ (db/README.md).']],
  ),
  forbidImports(
    ['db/pg/**/*.ts'],
    [HANDLERS, ['^\\.\\./(queries|hogql|migrations)/', 'db/pg/ is the plumbing under the queries: it never imports them (db/README.md).']],
  ),
  forbidImports(
    ['db/hogql/**/*.ts'],
    [HANDLERS, ['^\\.\\./(pg|queries|migrations)/', 'db/hogql/ compiles text to SQL without a connection: it imports only db/core/ (db/README.md).']],
  ),
  forbidImports(
    ['handlers/capture/**/*.ts'],
    [['^\\.\\./server/', 'handlers/capture/ turns requests into events; the server/ room that hosts it is above it (handlers/README.md).']],
  ),
  forbidImports(
    ['handlers/jobs/**/*.ts'],
    [['^(\\.\\./)+server/', 'handlers/jobs/ is the engine room: the server/ room that hosts it is above it (handlers/jobs/README.md).']],
  ),
  forbidImports(
    ['handlers/openapi/**/*.ts'],
    [['^\\.\\./(?!\\.\\./(db/core|generated)/)', 'handlers/openapi/ is the spec compiled: it imports only db/core/ and generated/ (handlers/README.md).']],
  ),
);
