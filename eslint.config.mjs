// typescript-eslint's recommended rules over all TypeScript sources; generated code is skipped.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The gateway's two matchers of request paths: the OpenAPI document's routes and the permission declarations.
const PATH_MATCHERS = ['services/gateway/src/middleware/document-routing.ts', 'services/gateway/src/middleware/permissions.ts'];
// Files that record the request's path without deciding anything on it.
const PATH_RECORDERS = [
  'services/gateway/src/middleware/access-log.ts',
  'services/gateway/src/middleware/metrics.ts',
  'services/gateway/src/middleware/errors.ts',
  'services/gateway/src/routes/oauth.ts',
  'services/gateway/src/routes/dataprocessing.ts',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'proto/src/gen/**', '**/*.js', '**/*.mjs', 'charts/**/templates/**', 'testkit/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // CONVENTIONS.md: a guard is mounted on the route it protects, never matched against the
    // request's path by string (Express matches paths its own way: a string check is skipped by
    // another spelling of the same route). Who may call a route is declared in
    // services/gateway/src/routes/permissions.ts and found for the request by the one matcher
    // (middleware/permissions.ts, beside the document's in middleware/document-routing.ts); no other
    // code reads the request's path at all, however it would compare it (a copy in a variable, a
    // concatenation, a regular expression's exec, destructuring) — only the files below that
    // record it.
    files: ['services/gateway/src/**/*.ts'],
    ignores: [...PATH_MATCHERS, ...PATH_RECORDERS],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='req'][property.name=/^(path|url|originalUrl|baseUrl)$/]",
          message: "Declare who may call the route in routes/permissions.ts (or mount the check on the route it guards) instead of reading the request's path.",
        },
        {
          selector: "VariableDeclarator[init.name='req'] > ObjectPattern > Property[key.name=/^(path|url|originalUrl|baseUrl)$/]",
          message: "Declare who may call the route in routes/permissions.ts (or mount the check on the route it guards) instead of reading the request's path.",
        },
      ],
    },
  },
  {
    // The files that record the request's path (logs, metrics, a problem's instance, a next-page
    // link) may read it, but never decide on it.
    files: PATH_RECORDERS,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "BinaryExpression[operator=/^[!=]=/] > MemberExpression[object.name='req'][property.name=/^(path|url|originalUrl|baseUrl)$/]",
          message: 'Mount the check on the route it guards (router.post(path, guard, handler)) instead of comparing the request path.',
        },
        {
          selector:
            "CallExpression > MemberExpression[property.name=/^(startsWith|endsWith|includes|match|test)$/][object.object.name='req'][object.property.name=/^(path|url|originalUrl|baseUrl)$/]",
          message: 'Mount the check on the route it guards (router.post(path, guard, handler)) instead of matching the request path.',
        },
        {
          selector:
            "CallExpression[callee.property.name=/^(exec|test|match|search)$/] > MemberExpression.arguments[object.name='req'][property.name=/^(path|url|originalUrl|baseUrl)$/]",
          message: 'Mount the check on the route it guards (router.post(path, guard, handler)) instead of matching the request path.',
        },
      ],
    },
  },
);
