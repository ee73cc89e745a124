// Type-aware lint: the rules that catch real bugs in async server code (promises nobody awaits,
// promises passed where a callback's result is ignored, switches that forget a case).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The import layers (no cycle between folders, the ground below the features, rmm's areas) are dependency-cruiser's
// (.dependency-cruiser.cjs, npm run lint:deps; docs/architecture.md).

export default tseslint.config(
  // (libs/protocol/src/generated/: Ajv's code, written by scripts/protocol-validators.js)
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'docs/**', '**/*.js', '**/*.mjs', '**/*.cjs', 'libs/protocol/src/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/await-thenable': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      curly: ['error', 'multi-line'],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
    },
  },
  {
    // The agent runs with the protocol's generated validators, not its schemas nor Ajv's compiler
    // (docs/decisions.md, "The agent's validators, generated ahead of time"; scripts/build-agent.js checks the bundle).
    files: ['apps/agent/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@app/protocol', allowTypeImports: true, message: "import '@app/protocol/agent': '@app/protocol' brings TypeBox and Ajv's compiler into the agent" }],
          patterns: [
            { group: ['@app/protocol/*', '!@app/protocol/agent'], allowTypeImports: true, message: "import '@app/protocol/agent', the protocol's part the agent runs with" },
            { group: ['ajv', 'ajv/*', '@sinclair/typebox', '@sinclair/typebox/*'], allowTypeImports: true, message: "the agent carries neither Ajv nor TypeBox: it checks messages with '@app/protocol/agent''s generated validators" },
          ],
        },
      ],
    },
  },
);
