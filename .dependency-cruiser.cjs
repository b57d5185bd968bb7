// The structure rules of `npm run lint` (STYLE 11, docs/architecture.md, docs/decisions/packages.md),
// checked by dependency-cruiser through scripts/lint-structure.mjs over the four packages' src trees.
//
// In every package (control-plane, runtime, sandbox-lib, cli): no two files and no two folders, at
// any depth, import each other in a cycle. scripts/lint-structure.mjs adds the one check
// dependency-cruiser cannot say, since its folders contain their subfolders: a folder's own files
// and its subfolders import one way (a parent's file imports its child, or the child a parent's
// file, never both).
//
// The control plane's areas on top of that:
//
//   core ← workspace ← apps ← deliveries ← messaging ← blocks ← the composition root
//   core ← console (the web console: it reaches the others only over their HTTP APIs) ← the composition root
//
// An area imports only the areas to its left; the composition root (wiring/, seed/ and the files
// at the top of control-plane/src) imports anything and nothing imports it.
//
// Paths are relative to the working directory: test/lint/ runs the same rules on small fixture
// trees of the same shape (control-plane/src, sandbox-lib/src, ...) that break them. LINT_PACKAGES
// (comma-separated) narrows the cruise to some of the packages.
const PACKAGES = (process.env.LINT_PACKAGES ?? 'control-plane,runtime,sandbox-lib,cli').split(',');
const SOURCES = `^(${PACKAGES.join('|')})/src/`;
const root = 'control-plane/src';
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const at = (path) => `^${esc(root)}/${path}`;

/** Lowest first: each area may import those before it. */
const AREAS = ['core', 'workspace', 'apps', 'deliveries', 'messaging', 'blocks'];
/** The composition root: entry files at the top, the wiring, the demo seed. */
const COMPOSITION = `(wiring/|seed/|[^/]+$)`;

const areaRules = AREAS.map((area, i) => ({
  name: `area-${area}`,
  severity: 'error',
  comment: `${area}/ imports only ${i === 0 ? 'libraries and sandbox-lib' : AREAS.slice(0, i).join(', ')} (the areas go one way; wiring lives in the composition root)`,
  from: { path: at(`${area}/`) },
  to: { path: [...AREAS.slice(i + 1).map((a) => at(`${a}/`)), at(COMPOSITION)] },
}));

/** The console sits beside the feature areas: it calls them through their HTTP APIs, never by import. */
const consoleRule = {
  name: 'area-console',
  severity: 'error',
  comment: 'console/ imports only core (it reaches features through /client/v1 and /v0, handed in as a request function)',
  from: { path: at('console/') },
  to: { path: [...AREAS.slice(1).map((a) => at(`${a}/`)), at(COMPOSITION)] },
};
const intoConsole = {
  name: 'not-into-console',
  severity: 'error',
  comment: 'Only the composition root mounts the console',
  from: { path: at(`(${AREAS.join('|')})/`) },
  to: { path: at('console/') },
};

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...areaRules,
    consoleRule,
    intoConsole,
    {
      name: 'wiring-not-entries',
      severity: 'error',
      comment: 'wiring/ and seed/ are wired by the entry files at the top; they do not import them',
      from: { path: at('(wiring|seed)/') },
      to: { path: at('[^/]+$') },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      comment: 'No two modules import each other, directly or through others',
      from: { path: SOURCES },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'No two folders import each other, directly or through others, at any depth',
      scope: 'folder',
      from: { path: SOURCES },
      to: { circular: true },
    },
  ],
  options: {
    // The packages' src trees, and nothing else (not their tests, not node_modules).
    includeOnly: SOURCES,
    // Type-only imports count: a folder that needs another's types depends on it.
    tsPreCompilationDeps: true,
    moduleSystems: ['es6'],
    enhancedResolveOptions: { conditionNames: ['source', 'import', 'node', 'default'], extensions: ['.ts', '.js'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
