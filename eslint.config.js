// Type-aware lint: the promise and assertion mistakes a type checker can see,
// unused names, and nothing that formatting (prettier) already decides.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import compositionRoot from './lint/composition-root.js';
import oemName from './lint/oem-name.js';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test runs suites and tests it is handed; their promises are the runner's.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-constant-condition': ['error', { checkLoops: false }],
      // A `let` read (by a closure) before its one assignment stays a `let`: as a `const` that read would throw.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests read loosely typed JSON answers.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Every layer of src/: the controller's parts are made by the composition root only (src/app.ts,
    // src/compose/; the command line, a fleet and the tools are roots of their own).
    files: ['src/**/*.ts'],
    ignores: ['src/app.ts', 'src/compose/**', 'src/cli.ts', 'src/fleet/**', 'src/tools/**'],
    plugins: { bmc: { rules: { 'composition-root': compositionRoot } } },
    rules: {
      'bmc/composition-root': [
        'error',
        {
          // Collected rule violations of an update queue check: a value.
          values: ['Violations'],
          // The parts a class makes for itself and no one else sees.
          privateParts: {
            'src/domain/events/hub.ts': ['EventOutbox', 'SubscriptionStore', 'HttpsSender', 'SseStreams', 'DeliveryWorker'],
            // A controller's own, unless a fleet hands it shared ones.
            'src/domain/events/delivery.ts': ['OutboundConnections'],
          },
        },
      ],
    },
  },
  {
    // The areas, the domain and the simulator never spell the vendor namespace (--oem-name):
    // protocol/naming.ts owns it.
    files: ['src/api/**/*.ts', 'src/domain/**/*.ts', 'src/platform/**/*.ts'],
    plugins: { naming: { rules: { 'oem-name': oemName } } },
    rules: { 'naming/oem-name': 'error' },
  },
);
