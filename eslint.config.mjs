// typescript-eslint's recommended rules over all TypeScript sources; generated code is skipped.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    // another spelling of the same route).
    files: ['services/gateway/src/**/*.ts'],
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
      ],
    },
  },
);
