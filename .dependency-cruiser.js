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
      comment:
        'Import cycles make start-up order and refactoring fragile: move the shared piece into a module both sides import. Type-only imports count too: a circle of types is still two modules that cannot be read, moved or changed apart.',
      from: {},
      // Every import counts, `import type` included (it was exempt, and the console's shell and
      // its six pages imported each other through it).
      to: { circular: true },
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
    // The rooms of a service (README, "Inside a service: the same rooms"), one rule per row, for
    // every service.
    {
      name: 'config-only-common',
      severity: 'error',
      comment: 'services/*/src/config.ts is the typed environment schema: it may use @accord/common (and a schema library), never the rooms of the service.',
      from: { path: '^services/[^/]+/src/config\\.ts$' },
      to: { path: '^services/[^/]+/src/(app|domain|store|grpc|events)(/|\\.ts$)' },
    },
    {
      name: 'metrics-only-common',
      severity: 'error',
      comment: "services/*/src/metrics.ts declares the service's Prometheus metrics with @accord/common; the rooms report to it, not the other way round.",
      from: { path: '^services/[^/]+/src/metrics\\.ts$' },
      to: { path: '^services/[^/]+/src/(app|domain|store|grpc|events)(/|\\.ts$)' },
    },
    {
      name: 'app-through-ports',
      severity: 'error',
      comment:
        'services/*/src/app holds the use cases: they use the store and other services through the interfaces of app/ports.ts, never a store module, a gRPC or NATS adapter, nor a database, broker or transport library.',
      from: { path: '^services/[^/]+/src/app/', pathNot: '\\.test\\.ts$' },
      to: {
        path: [
          '^services/[^/]+/src/(store|grpc|events)(/|\\.ts$)',
          '(^|/)node_modules/(mongoose|mongodb|nats|@grpc/grpc-js|express)/',
          '^(mongoose|mongodb|nats|@grpc/grpc-js|express)(/|$)',
        ],
      },
    },
    {
      name: 'store-holds-queries',
      severity: 'error',
      comment:
        'services/*/src/store holds the storage adapters: models and queries over the port (app/ports.ts), domain types; never the use cases, the gRPC or NATS adapters, nor a broker or transport library.',
      from: { path: '^services/[^/]+/src/store/', pathNot: '\\.test\\.ts$' },
      to: {
        path: [
          '^services/[^/]+/src/(grpc|events)(/|\\.ts$)',
          '^services/[^/]+/src/app/(?!ports\\.ts$)',
          '(^|/)node_modules/(nats|@grpc/grpc-js|express)/',
          '^(nats|@grpc/grpc-js|express)(/|$)',
        ],
      },
    },
    {
      name: 'grpc-translates-only',
      severity: 'error',
      comment:
        'services/*/src/grpc holds the gRPC handlers and clients: request → use case → message. A handler never reads the store (no store module, no mongoose or mongodb) nor reaches into the NATS adapters; the types both sides share are in app/ports.ts or domain/.',
      from: { path: '^services/[^/]+/src/grpc/', pathNot: '\\.test\\.ts$' },
      to: {
        path: ['^services/[^/]+/src/(store|events)(/|\\.ts$)', '(^|/)node_modules/(mongoose|mongodb)/', '^(mongoose|mongodb)(/|$)'],
      },
    },
    {
      name: 'events-without-grpc',
      severity: 'error',
      comment:
        'services/*/src/events (NATS publishers, consumers, background jobs) and grpc/ are two adapters side by side: a mapping both need lives in domain/ (the wire form of a record), never in one of them.',
      from: { path: '^services/[^/]+/src/events/', pathNot: '\\.test\\.ts$' },
      to: { path: '^services/[^/]+/src/grpc(/|\\.ts$)' },
    },
    {
      name: 'jobs-through-ports',
      severity: 'error',
      comment: "services/*/src/events: background jobs get the service's storage port (app/ports.ts), never a store module or a database library.",
      from: { path: '^services/[^/]+/src/events/', pathNot: '\\.test\\.ts$' },
      to: {
        path: ['^services/[^/]+/src/store(/|\\.ts$)', '(^|/)node_modules/(mongoose|mongodb)/', '^(mongoose|mongodb)(/|$)'],
      },
    },
    {
      name: 'middleware-without-routes',
      severity: 'error',
      comment:
        'services/*/src/middleware (the gateway: checks and limits a route mounts) is below the routes: a route imports its middleware, never the reverse; what both need (e.g. reading the Basic credentials) lives in middleware/.',
      from: { path: '^services/[^/]+/src/middleware/', pathNot: '\\.test\\.ts$' },
      to: { path: '^services/[^/]+/src/routes(/|\\.ts$)' },
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
      name: 'services-without-clients',
      severity: 'error',
      comment:
        "The services never import a client package (clients/: published for outside callers, or the console): what both sides share, such as the consent log's hashing, lives in shared/ (@accord/proofs).",
      from: { path: '^services/' },
      to: { path: '^clients/' },
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
