// ESLint: typescript-eslint's recommended rules plus a few house rules.
import tseslint from 'typescript-eslint';

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
);
