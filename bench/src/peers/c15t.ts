/**
 * The consent peer of `npm run bench`: c15t (`@c15t/backend`, installed apart from Accord in
 * bench/peers/c15t, see C15T_DIR) on a throw-away PostgreSQL, twice — with durable commits (PostgreSQL's defaults) and
 * with `fsync=off` (closer to the in-memory database Accord runs on here). Each run records
 * consents with `POST /subjects` (a new subject per request), then reads subjects that run
 * recorded with `GET /subjects/:id`.
 */
import { join } from 'node:path';
import { REPO_ROOT, spawnLogged, stopChild } from '@accord/local-stack';
import { measure, type BenchResult } from '../measure';
import { startPostgres, type ThrowAwayPostgres } from './postgres';

/**
 * The peer's own package: its package.json and lock file, its server (server.mjs) and, once
 * `npm ci --prefix bench/peers/c15t` ran (`provision.js bench` when peers are wanted), its
 * node_modules — apart from Accord's, so Accord's install and images carry none of it.
 */
export const C15T_DIR = join(REPO_ROOT, 'bench', 'peers', 'c15t');

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const base58 = (n: number): string => (n < 58 ? '' : base58(Math.floor(n / 58))) + BASE58[n % 58]!;

/** c15t's subject ids are `sub_` and base58: request `n` of run `run` (e.g. its start time). */
export const subjectId = (run: number, n: number): string => `sub_${base58(run)}x${base58(n)}`;

/** The body of a POST /subjects: one consent to one purpose for a new subject, as Accord's one event. */
export const recordBody = (run: number, n: number) =>
  JSON.stringify({
    type: 'marketing_communications',
    subjectId: subjectId(run, n),
    domain: 'bench.example',
    preferences: { email: true },
    givenAt: Date.now(),
  });

async function startC15t(pg: ThrowAwayPostgres, log?: (line: string) => void): Promise<{ url: string; stop(): Promise<void> }> {
  let onPort!: (port: number) => void;
  const port = new Promise<number>((resolve) => (onPort = resolve));
  const tail: string[] = [];
  const child = spawnLogged(process.execPath, [join(C15T_DIR, 'server.mjs')], {
    env: { ...process.env, PGHOST: pg.socketDir, PGUSER: 'postgres', PGDATABASE: 'postgres' },
    onOutput: (l) => {
      const m = /c15t listening on (\d+)/.exec(l);
      if (m) onPort(Number(m[1]));
      tail.push(l);
      if (tail.length > 20) tail.shift();
      log?.(l);
    },
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`c15t exited with code ${code}:\n${tail.join('\n')}`))));
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('c15t did not listen within 60 s')), 60_000).unref());
  try {
    const p = await Promise.race([port, exited, timeout]);
    return { url: `http://127.0.0.1:${p}`, stop: () => stopChild(child) };
  } catch (err) {
    await stopChild(child);
    throw err;
  }
}

export interface C15tRun {
  /** `durable commits` or `fsync=off`. */
  label: string;
  settings: string;
  record: BenchResult;
  read: BenchResult;
}

/** The two c15t runs (durable, then fsync=off), each on its own fresh database. */
export async function benchC15t(durationSec: number, version: string, log?: (line: string) => void): Promise<C15tRun[]> {
  const runs: C15tRun[] = [];
  for (const [label, settings] of [
    ['durable commits', []],
    ['fsync=off', ['fsync=off']],
  ] as const) {
    const pg = await startPostgres({ settings: [...settings], log });
    try {
      const c15t = await startC15t(pg, log);
      try {
        const run = Date.now();
        // what is measured must be right: a record answers 200, a read finds it
        const check = await fetch(`${c15t.url}/subjects`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: recordBody(run, 0) });
        const got = await fetch(`${c15t.url}/subjects/${subjectId(run, 0)}`);
        const consents = ((await got.json()) as { consents?: unknown[] }).consents?.length;
        if (check.status !== 200 || got.status !== 200 || consents !== 1) {
          throw new Error(`c15t: POST /subjects answered ${check.status}, GET /subjects/:id ${got.status} with ${consents} consents`);
        }
        let sent = 1;
        const headers = { 'content-type': 'application/json' };
        const record = await measure(`c15t POST /subjects (${label})`, {
          url: `${c15t.url}/subjects`,
          method: 'POST',
          headers,
          body: (n) => {
            sent = n + 2;
            return recordBody(run, n + 1);
          },
          durationSec,
          sideBySide: true,
        });
        // reads of subjects that run recorded (the last few may still have been in flight)
        const recorded = Math.max(1, sent - 20);
        const read = await measure(`c15t GET /subjects/:id (${label})`, {
          url: `${c15t.url}/subjects`,
          path: (n) => `/subjects/${subjectId(run, (n * 7919) % recorded)}`,
          durationSec,
          sideBySide: true,
        });
        runs.push({
          label,
          settings: `c15t ${version}, Kysely on node-postgres (pool of 10), ${pg.version} on a Unix socket${settings.length ? `, ${settings.join(', ')}` : ' (fsync=on, synchronous_commit=on)'}; reads of the ${recorded} subjects recorded`,
          record,
          read,
        });
      } finally {
        await c15t.stop();
      }
    } finally {
      await pg.stop();
    }
  }
  return runs;
}
