// One jest run, several projects: unit tests beside the code (no I/O), component tests per
// service (real MongoDB-compatible server + NATS from the shared globalSetup), e2e through the
// whole stack, and offline checks of the Helm chart.
const transform = {
  '^.+\\.tsx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }],
  // ES-module-only dependencies, compiled to CommonJS like our sources (Node >= 20.19 requires them natively)
  '/node_modules/iso-3166/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
};
const transformIgnorePatterns = ['/node_modules/(?!iso-3166/)'];
const moduleNameMapper = {
  '^@accord/proto$': '<rootDir>/proto/src/index.ts',
  '^@accord/proofs$': '<rootDir>/shared/proofs/src/index.ts',
  '^@accord/verify$': '<rootDir>/clients/verify/src/index.ts',
  '^@accord/common$': '<rootDir>/services/common/src/index.ts',
  '^@accord/local-stack$': '<rootDir>/deploy/local/src/index.ts',
  '^@accord/testkit$': '<rootDir>/testkit/src/index.ts',
  '^@accord/(oauth|consent|dataprocessing|webhook|gateway)$': '<rootDir>/services/$1/src/index.ts',
};
const base = { rootDir: __dirname, transform, transformIgnorePatterns, moduleNameMapper, testEnvironment: 'node' };
const withServers = {
  ...base,
  globalSetup: '<rootDir>/deploy/local/src/jest/global-setup.ts',
  globalTeardown: '<rootDir>/deploy/local/src/jest/global-teardown.ts',
  testTimeout: 60000,
};

/** @type {import('jest').Config} */
module.exports = {
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // jest-circus reads the timeout from the global config only: the projects' testTimeout below is
  // ignored, and tests against the servers fell back to 5 s (they failed on a loaded machine).
  testTimeout: 60000,
  // Test files run in a worker process that is replaced once its heap holds more than this after a
  // file. Without it a 2-core machine (jest's default there is one worker, i.e. run in band) kept
  // every file's in-process stack in jest's own process: the heap grew ~150 MB per e2e file, late
  // tests met multi-second GC pauses (a 1,000-event POST answered 504) and CI's run ended with
  // jest aborting at V8's 4 GB heap limit. With a limit set, jest always uses workers.
  workerIdleMemoryLimit: '512MB',
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/{proto,shared,services,deploy,bench,clients,testkit}/**/src/**/*.test.ts', '<rootDir>/clients/*/test/**/*.test.ts'],
    },
    { ...withServers, displayName: 'component', testMatch: ['<rootDir>/services/*/test/**/*.test.ts', '<rootDir>/deploy/local/test/**/*.test.ts'] },
    { ...withServers, displayName: 'e2e', testMatch: ['<rootDir>/e2e/**/*.test.ts'] },
    { ...base, displayName: 'chart', testMatch: ['<rootDir>/charts/accord/test/**/*.test.ts'], testTimeout: 120000 },
    // charts/accord and the images on a real Kubernetes (deploy/cluster): runs when the cluster's
    // programs and the images are built (`npm run images && npm run test:cluster`), else says so in one line.
    {
      ...base,
      displayName: 'cluster',
      testMatch: ['<rootDir>/deploy/cluster/test/**/*.test.ts'],
      globalSetup: '<rootDir>/deploy/cluster/test/global-setup.ts',
      globalTeardown: '<rootDir>/deploy/cluster/test/global-teardown.ts',
    },
  ],
};
