// Boundaries that keep the house standing, checked by `npm run lint` (dependency-cruiser):
// no import cycles, domain rules without I/O or transport, routes that take business limits from
// the code that enforces them rather than from the OpenAPI text. Paths are relative to the
// directory depcruise runs in (the repository root; the proof test runs it in a fixture folder).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Import cycles make start-up order and refactoring fragile: move the shared piece into a module both sides import.',
      from: {},
      // Only runtime imports count: `import type` is erased by the compiler and cannot cycle at run time.
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'domain-without-io',
      severity: 'error',
      comment:
        'services/*/src/domain holds rules without I/O: it may not import the store, the gRPC or NATS adapters, the use cases (app), nor a database, broker or transport library.',
      // its unit tests may cross rooms to check that two sides agree
      from: { path: '^services/[^/]+/src/domain/', pathNot: '\\.test\\.ts$' },
      to: {
        path: [
          '^services/[^/]+/src/(store|grpc|events|app)(/|\\.ts$)',
          // resolved into node_modules, or left unresolved (the bare name)
          '(^|/)node_modules/(mongoose|mongodb|nats|@grpc/grpc-js|express)/',
          '^(mongoose|mongodb|nats|@grpc/grpc-js|express)(/|$)',
        ],
      },
    },
    {
      name: 'routes-without-openapi-fragments',
      severity: 'error',
      comment:
        'Gateway routes use the request validator (openapi/validate) and the document (openapi/index) only; business limits live beside the rule that enforces them, never in the OpenAPI text.',
      from: { path: '^services/gateway/src/routes/' },
      to: { path: '^services/gateway/src/openapi/', pathNot: '^services/gateway/src/openapi/(validate|index)\\.ts$' },
    },
    {
      name: 'testkit-only-in-tests',
      severity: 'error',
      comment: 'The test kit starts services and fakes: shipped code (anything but *.test.ts under src) may not import it.',
      from: { path: '^(services|proto|clients|deploy)/.+/src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^testkit/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/|^proto/src/gen/|^clients/sdk/src/gen/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
