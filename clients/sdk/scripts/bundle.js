#!/usr/bin/env node
// Builds dist/accord-elements.js: one ES module with the SDK and both web components, for
// browsers (served by the gateway at /sdk/accord-elements.js and shipped in the npm package).
const path = require('node:path');
const esbuild = require('esbuild');

/** The bundle as text (tests use it without a build); with `outfile`, written there. */
function bundle(outfile) {
  return esbuild.buildSync({
    entryPoints: [path.resolve(__dirname, '..', 'src', 'bundle.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    ...(outfile ? { outfile } : { write: false }),
  });
}
module.exports = { bundle };
if (require.main === module) bundle(path.resolve(__dirname, '..', 'dist', 'accord-elements.js'));
