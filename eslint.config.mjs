// typescript-eslint's type-checked rules over extension/, webview/, test/, bench/ and scripts/ (`npm run lint`).
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      'dist/',
      'out/',
      'node_modules/',
      'test/fixtures/',
      'test/e2e/workspace/',
      'test-results/',
      // generated from the report schema by scripts/reportTypes.ts
      'extension/shared/reportTypes.ts',
    ],
  },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      // one TypeScript program for every file (tsconfig.json includes each; `npm run lint` passes it the program its
      // type check built: scripts/typecheckAndLint.mjs)
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    rules: {
      // node:test's test() and describe() return promises the runner itself awaits
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      // no `any` across module boundaries (a project rule): what a module exports says its types
      '@typescript-eslint/explicit-module-boundary-types': 'error',
      // an empty arrow is how an ignored rejection, an unused callback or a resolver not yet set is written here
      '@typescript-eslint/no-empty-function': ['error', { allow: ['arrowFunctions'] }],
      // `const { dropped: _, ...rest } = x` is how a key is left out of a copy
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['extension/shared/trace/**', 'extension/node/trace/**'],
    rules: {
      // the byte scanners compare bytes and codes (numbers) with enums of byte values and kinds by design
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      // the parsers throw stackless sentinels (NEED_MORE, GIVE_UP, SyntaxProblem): an Error's stack costs per throw
      '@typescript-eslint/only-throw-error': 'off',
      // index loops in the hot paths stay index loops (no iterator per loop)
      '@typescript-eslint/prefer-for-of': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    // tsc type-checks the .mjs files (checkJs), which finds an undefined name with the real globals
    rules: { 'no-undef': 'off' },
  },
);
