// Marks the two builds' module systems, so Node loads dist/esm as ESM and dist/cjs as CommonJS.
const fs = require('node:fs');
const path = require('node:path');
const dist = path.resolve(__dirname, '..', 'dist');
fs.writeFileSync(path.join(dist, 'esm', 'package.json'), '{"type":"module"}\n');
fs.writeFileSync(path.join(dist, 'cjs', 'package.json'), '{"type":"commonjs"}\n');
