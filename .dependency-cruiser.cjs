// The import rules of apps/api/src (docs/architecture.md): no cycle between folders or files, and the layers.
// `npm run lint` runs it (npm run lint:deps); `npm run graph` draws the module graph from the same cruise.
// Type-only imports count (tsPreCompilationDeps): a type couples two folders as surely as a value does.
const SRC = '^apps/api/src/';
const RMM = `${SRC}rmm/`;
/** rmm's areas, lowest first: each may import the ground (rmm/common) and the areas before it, never one after. */
const AREAS = ['access', 'tenancy', 'alerting', 'fleet', 'automation', 'remote'];
/** What sits above every area: the events WebSockets, the bootstrap, the module that assembles them. */
const TOP = ['events', 'bootstrap'];
const FEATURES = ['rmm', 'platform', 'enroll', 'health', 'cli', 'console', 'openapi', 'settings'];
/** The assembly: the files at the root of apps/api/src (server, app module, main, error surfaces, write-openapi). */
const ASSEMBLY = `${SRC}[^/]+\\.ts$`;

const areaRules = AREAS.map((area, i) => ({
  name: `layer-${area}`,
  severity: 'error',
  comment: `rmm/${area}/ may import rmm/common/ and the areas below it (${AREAS.slice(0, i).join(', ') || 'none'}), never ${[...AREAS.slice(i + 1), ...TOP].join(', ')}: invert the dependency (a port in rmm/common, a handler the higher area registers, an event) instead`,
  from: { path: `${RMM}${area}/` },
  to: { path: `${RMM}(${[...AREAS.slice(i + 1), ...TOP].join('|')})/|${RMM}[^/]+\\.ts$` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      severity: 'error',
      scope: 'folder',
      comment: 'Folders of apps/api/src import each other in a cycle: one of them must stop importing the other (move the shared piece down, or invert the dependency)',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'no-file-cycle',
      severity: 'error',
      comment: 'Files import each other in a cycle',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'ground-imports-no-feature',
      severity: 'error',
      comment: 'common/, config/, database/ and jobs/ sit below every feature and the assembly: move what both need into the ground, or the code that needs the feature beside it',
      from: { path: `${SRC}(common|config|database|jobs)/` },
      to: { path: [`${SRC}(${FEATURES.join('|')})/`, ASSEMBLY] },
    },
    {
      name: 'common-below-jobs',
      severity: 'error',
      comment: 'common/ sits below the job registry (jobs/ needs the database): register a loop through the port common/jobs/jobs.ts (Jobs), never the registry itself',
      from: { path: `${SRC}common/` },
      to: { path: `${SRC}jobs/` },
    },
    {
      name: 'config-reads-no-repository',
      severity: 'error',
      comment: 'config/ reads no repository: declare an interface in config/ (as secret-store.ts) and let the owning module provide it',
      from: { path: `${SRC}config/` },
      to: { path: `${SRC}(settings|database)/` },
    },
    {
      name: 'enroll-over-http',
      severity: 'error',
      comment: 'enroll/ calls the data platform over HTTP, as the spec\'s function does, never by import; nor does it reach into the management backend',
      from: { path: `${SRC}enroll/` },
      to: { path: `${SRC}(platform|rmm)/` },
    },
    {
      name: 'platform-knows-no-rmm',
      severity: 'error',
      comment: 'The data platform (A) knows nothing of the management backend (B)',
      from: { path: `${SRC}platform/` },
      to: { path: `${SRC}rmm/` },
    },
    {
      name: 'rmm-ground-imports-no-feature',
      severity: 'error',
      comment: 'rmm/common is the ground of rmm/ (principal, scopes, guards and their ports, the event bus, the shared resources): it imports no rmm area',
      from: { path: `${RMM}common/` },
      to: { path: `${RMM}(?!common/)` },
    },
    {
      name: 'event-contract-imports-no-service',
      severity: 'error',
      comment: "The event map (the bus's contract) names payloads only: it imports the shared resources and the entities' types, no service",
      from: { path: `${RMM}common/bus/event-map\\.ts$` },
      to: { pathNot: [`${RMM}common/resources/`, '^libs/entities/'] },
    },
    ...areaRules,
    {
      name: 'libs-import-no-app',
      severity: 'error',
      comment: 'libs/ is shared by the server, the agent and the console: it imports nothing of apps/',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'protocol-stands-alone',
      severity: 'error',
      comment: 'libs/protocol is the agent protocol both ends import: no other lib (the entities are TypeORM, which the agent must not carry)',
      from: { path: '^libs/protocol/' },
      to: { path: '^libs/(?!protocol/)' },
    },
    {
      name: 'agent-shares-only-the-protocol',
      severity: 'error',
      comment: 'The agent (apps/agent) shares only libs/protocol with the server: nothing of apps/api, no entities',
      from: { path: '^apps/agent/' },
      to: { path: ['^apps/(?!agent/)', '^libs/(?!protocol/)'] },
    },
    {
      name: 'top-imported-by-nothing',
      severity: 'error',
      comment: 'rmm/events/ and rmm/bootstrap/ are at the top: only the assembly (rmm.module.ts, app.module.ts) imports them',
      from: { path: `${RMM}(common|${AREAS.join('|')})/` },
      to: { path: `${RMM}(${TOP.join('|')})/` },
    },
  ],
  options: {
    includeOnly: ['^apps/api/src/', '^apps/agent/src/', '^libs/'],
    exclude: { path: '\\.(spec|e2e-spec|medium-spec)\\.ts$' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] },
    reporterOptions: {
      // The picture in docs/architecture.md: one box per folder.
      dot: {
        collapsePattern: '^(apps/api/src/rmm/(access|tenancy|alerting|fleet|automation|remote)/[^/]+|apps/api/src/rmm/common/[^/]+|apps/api/src/[^/]+|libs/[^/]+)/',
      },
    },
  },
};
