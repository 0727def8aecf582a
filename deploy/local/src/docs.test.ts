import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsEnv } from '@accord/common';
import * as consent from '@accord/consent';
import * as dataprocessing from '@accord/dataprocessing';
import * as gateway from '@accord/gateway';
import * as oauth from '@accord/oauth';
import * as webhook from '@accord/webhook';

const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
const table = readme.slice(readme.indexOf('<!-- config-table:start -->'), readme.indexOf('<!-- config-table:end -->'));
const documented = new Set([...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]!));

const shapes = {
  oauth: oauth.configShape,
  consent: consent.configShape,
  dataprocessing: dataprocessing.configShape,
  webhook: webhook.configShape,
  gateway: gateway.configShape,
};
// The metrics variables are read by every main.ts beside its service's schema.
const read = new Set([...Object.values(shapes).flatMap((s) => Object.keys(s)), ...Object.keys(metricsEnv(0))]);

describe('the README configuration table', () => {
  test('lists every variable a service reads', () => {
    expect([...read].filter((v) => !documented.has(v)).sort()).toEqual([]);
  });

  test('lists no variable that no service reads', () => {
    expect([...documented].filter((v) => !read.has(v)).sort()).toEqual([]);
  });
});
