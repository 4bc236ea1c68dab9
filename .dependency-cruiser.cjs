// The layer rule of docs/decisions/005-layers.md, checked by `npm run lint:deps` (part of `npm run lint`).
// Imports run one way: routes (and root, entry, components) → services → models → db.
// app/utils and app/constants.ts may be imported by every layer; utils import only constants, constants nothing.
// db/seed.ts, db/factories.ts and db/demo-data.ts are tooling: they may use models, utils and constants, not services.

const TOP = '^app/(routes/|components/|root\\.tsx$|entry\\.server\\.tsx$)'
const SHARED = '^app/(utils/|constants\\.ts$)'
/** The services' domain folders (docs/architecture.md); http/ and platform/ are the plumbing under all of them. */
const DOMAINS = '^app/services/(accounts|ads|analytics|calendar|mail|media|moderation|operations|patient-records|payments|subscriptions)/'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycle, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'constants-import-nothing',
      severity: 'error',
      comment: 'app/constants.ts is the bottom of the app: it imports nothing of the app or db.',
      from: { path: '^app/constants\\.ts$' },
      to: { path: '^(app|db|server|scripts|tests)/' },
    },
    {
      name: 'utils-import-only-constants',
      severity: 'error',
      comment:
        'app/utils holds pure helpers: they may import each other and app/constants.ts, nothing else of ours.',
      from: { path: '^app/utils/' },
      to: { path: '^(app|db|server|scripts|tests)/', pathNot: SHARED },
    },
    {
      name: 'models-below-services',
      severity: 'error',
      comment: 'Models use db, utils and constants (and each other); never services, routes or components.',
      from: { path: '^app/models/' },
      to: { path: `^app/services/|${TOP}` },
    },
    {
      name: 'services-below-routes',
      severity: 'error',
      comment:
        'Services use models, db, utils and constants; never routes or components (rendering is theirs).',
      from: { path: '^app/services/' },
      to: { path: TOP },
    },
    {
      name: 'services-in-folders',
      severity: 'error',
      comment: 'Every service lives in its domain folder or in http/ or platform/ (docs/architecture.md).',
      from: { path: '^app/services/[^/]+$' },
      to: {},
    },
    {
      name: 'plumbing-below-domains',
      severity: 'error',
      comment:
        'app/services/http (reading and answering requests) and app/services/platform (configuration, logs, metrics, ' +
        'the database connection) serve every domain and know none of them.',
      from: { path: '^app/services/(http|platform)/' },
      to: { path: DOMAINS },
    },
    {
      name: 'operations-from-the-top',
      severity: 'error',
      comment:
        'Backups, restores, the admin socket and the hourly jobs are started by the server entry or a command, never by a domain.',
      from: { path: '^app/', pathNot: '^app/(entry\\.server\\.tsx$|services/operations/)' },
      to: { path: '^app/services/operations/' },
    },
    {
      name: 'components-without-server-code',
      severity: 'error',
      comment: 'Components are UI: no services, no routes, no server-only models.',
      from: { path: '^app/components/' },
      to: { path: '^app/(services|routes)/|^app/models/.*\\.server\\.tsx?$|^db/' },
    },
    {
      name: 'db-is-the-bottom',
      severity: 'error',
      comment:
        'db/schema.ts, db/client.server.ts and the migrations import nothing of the app but utils and constants.',
      from: { path: '^db/', pathNot: '^db/(seed|factories|demo-data)\\.ts$' },
      to: { path: '^app/', pathNot: SHARED },
    },
    {
      name: 'db-tooling-without-services',
      severity: 'error',
      comment:
        'The seed and the factories are tooling on top of models: they may use models, utils and constants, not services.',
      from: { path: '^db/(seed|factories|demo-data)\\.ts$' },
      to: { path: `^app/services/|${TOP}` },
    },
    {
      name: 'app-not-on-tooling',
      severity: 'error',
      comment: 'The app and db never import tests or scripts.',
      from: { path: '^(app|db)/' },
      to: { path: '^(tests|scripts)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve would hide a dependency from these rules.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(build|data|node_modules|test-results|playwright-report|tests/\\.tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    skipAnalysisNotInRules: true,
  },
}
