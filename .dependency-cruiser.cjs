// The control plane's areas (STYLE 11, docs/architecture.md), checked by dependency-cruiser in
// `npm run lint`:
//
//   core ← workspace ← apps ← deliveries ← messaging ← blocks ← the composition root
//   core ← console (the web console: it reaches the others only over their HTTP APIs) ← the composition root
//
// An area imports only the areas to its left; the composition root (wiring/, seed/ and the files
// at the top of control-plane/src) imports anything and nothing imports it. On top of that, no two
// files and no two folders, at any depth, import each other in a cycle.
//
// AREAS_ROOT points the same rules at another tree (test/lint/areas.test.ts runs them on small
// fixtures that break them).
const root = (process.env.AREAS_ROOT ?? 'control-plane/src').replace(/\/$/, '');
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
      from: { path: at('') },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'No two folders import each other, directly or through others, at any depth',
      scope: 'folder',
      from: { path: at('') },
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: at(''),
    // Type-only imports count: a folder that needs another's types depends on it.
    tsPreCompilationDeps: true,
    moduleSystems: ['es6'],
    enhancedResolveOptions: { conditionNames: ['source', 'import', 'node', 'default'], extensions: ['.ts', '.js'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
