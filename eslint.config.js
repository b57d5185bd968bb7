// Lint: TypeScript syntax rules plus the one-way import rule of DESIGN §1:
// sandbox-lib imports nothing of ours; runtime and control-plane import sandbox-lib only through
// its package entries; control-plane never imports runtime internals (only its public entry).
// The CLI (`cli/`) sits on top: it may import sandbox-lib and runtime through their package
// entries, never the control plane; nothing imports the CLI.
import tseslint from 'typescript-eslint';

const ours = ['@platform/*', '**/control-plane/**', '**/runtime/**', '**/sandbox-lib/**', '**/cli/**'];
const noCli = { group: ['@platform/cli', '@platform/cli/*', '**/cli/**'], message: 'Nothing imports the CLI; it sits on top of the packages.' };
const runtimePatterns = [
  { group: ['@platform/control-plane', '@platform/control-plane/*', '**/control-plane/**'], message: 'runtime never imports the control plane (DESIGN §1).' },
  { group: ['@platform/sdk/*', '**/sandbox-lib/**', '!@platform/sdk/node'], message: 'Import sandbox-lib through its package entries only (`@platform/sdk`, `@platform/sdk/node`).' },
  noCli,
];

export default tseslint.config(
  // `.platform/` is the CLI's build output in an app folder (README, "Your first hosted app", builds
  // one inside the repository): generated, bundled code that is not ours to lint.
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', '**/.platform/**', 'test/fixtures/**/bundle*', 'coverage/**', 'runtime/native/.build/**', '.bench/**',
    // Topology probes (issue 24): plain CommonJS scripts run by node directly, as in the runtime study.
    'test/bench/probes/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // No console.* in product code (loggers are injected, STYLE §6). Only there: the guest runtime
    // defines console for apps, the CLI prints, tests and scripts may, and an app author's own
    // folder inside the repository (README, "Your first hosted app") logs as any app does.
    files: ['sandbox-lib/src/**/*.ts', 'runtime/src/**/*.ts', 'control-plane/src/**/*.ts'],
    ignores: ['runtime/src/guest/**'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['sandbox-lib/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ours, message: 'sandbox-lib imports nothing of ours (DESIGN §1).' }] }],
    },
  },
  {
    files: ['runtime/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: runtimePatterns }] },
  },
  // No function in the runtime's product code is over 100 lines (issue 26): counted without blank
  // lines and comments, which say why and should not be cut to fit.
  {
    files: ['runtime/src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  // The supervisor and its sandbox workers are separate processes: what they share (messages, the
  // frame channel, the entry journal's wire form) lives in runtime/src/protocol/, so they meet only there.
  {
    files: ['runtime/src/supervisor/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...runtimePatterns, { group: ['**/sandbox/**'], message: 'The supervisor and the sandbox meet only in runtime/src/protocol/.' }] }] },
  },
  {
    files: ['runtime/src/sandbox/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...runtimePatterns, { group: ['**/supervisor/**'], message: 'The sandbox and the supervisor meet only in runtime/src/protocol/.' }] }] },
  },
  {
    files: ['control-plane/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        // `@platform/runtime/metrics-server` is the operator port both kinds of process serve;
        // `@platform/runtime/telemetry` (and `-config`, its OTEL_* settings) the OTLP export both do.
        { group: ['@platform/runtime/*', '**/runtime/src/**', '!@platform/runtime/fleet', '!@platform/runtime/metrics-server', '!@platform/runtime/telemetry', '!@platform/runtime/telemetry-config'], message: 'The control plane talks to runtime nodes over HTTP; import only @platform/runtime (its public client types), @platform/runtime/fleet (the registry record), @platform/runtime/metrics-server (the operator port) and @platform/runtime/telemetry(-config) (the OTLP export).' },
        { group: ['@platform/sdk/*', '**/sandbox-lib/**', '!@platform/sdk/node', '!@platform/sdk/render'], message: 'Import sandbox-lib through its package entries only (`@platform/sdk`, `@platform/sdk/node`, `@platform/sdk/render`).' },
        noCli,
      ] }],
    },
  },
  {
    files: ['cli/src/**/*.ts', 'cli/bin/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['@platform/control-plane', '@platform/control-plane/*', '**/control-plane/**'], message: 'The CLI talks to the control plane over HTTP only.' },
        // `@platform/runtime/dev` is the runtime's entry for `platform dev` (a local node serving one app).
        { group: ['@platform/sdk/*', '@platform/runtime/*', '**/sandbox-lib/**', '**/runtime/**', '!@platform/sdk/node', '!@platform/runtime/dev', '!@platform/sdk/render'], message: 'Import sandbox-lib and runtime through their package entries only.' },
      ] }],
    },
  },
  {
    // The console's client script runs in browsers: it imports nothing but its own files.
    files: ['control-plane/src/console/browser/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@platform/*', '../*', 'node:*'], message: 'The console\'s browser script imports only its own folder.' }] }] },
  },
);
