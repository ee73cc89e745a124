// Type-aware lint: the rules that catch real bugs in async server code (promises nobody awaits,
// promises passed where a callback's result is ignored, switches that forget a case).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Layers (docs/decisions.md, "Layers"): common/ and config/ sit below every feature and the assembly (server,
// app module, error-surface list, OpenAPI document); config/ also reads no repository (the settings module
// provides SecretStore); enroll/ reaches the data platform over HTTP, as the spec's function does, never by import.
const restrict = (message, ...names) => ({ regex: `^(\\.\\./)+(${names.join('|')})(/|$)`, message });
const FEATURES = ['rmm', 'platform', 'enroll', 'health', 'cli', 'console'];
const ASSEMBLY = ['openapi', 'server', 'main', 'app\\.module', 'error-surfaces'];
const layers = (files, ...patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'docs/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
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
  layers(
    ['apps/api/src/common/**/*.ts'],
    restrict('common/ is below the features and the assembly: move what both need into common/, or the code that needs the feature beside it', ...FEATURES, ...ASSEMBLY),
  ),
  layers(
    ['apps/api/src/config/**/*.ts'],
    restrict('config/ is below the features and the assembly: a feature provides what the config needs through an interface declared in config/', ...FEATURES, ...ASSEMBLY),
    restrict('config/ reads no repository: declare an interface in config/ (as secret-store.ts) and let the owning module provide it', 'settings', 'database'),
  ),
  layers(
    ['apps/api/src/enroll/**/*.ts'],
    restrict('enroll/ calls the data platform over HTTP, never by import: what both need lives in common/', 'platform'),
  ),
);
