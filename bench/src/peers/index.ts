/**
 * The peers of `npm run bench` (area `peers`): the systems a user would pick instead of Accord,
 * each a real install from its registry, started by the bench on loopback and measured in the
 * same run — c15t for recording and reading consent, Ory Hydra for tokens. A peer that cannot be
 * installed or started here is reported as such, with the reason; the bench goes on.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '@accord/local-stack';
import { measure, type BenchResult } from '../measure';
import { benchC15t, C15T_DIR, type C15tRun } from './c15t';
import { hydraBinary, startHydra } from './hydra';
import { postgresMissing } from './postgres';

export interface PeerReport {
  c15t: { runs: C15tRun[] } | { missing: string };
  hydra: { settings: string; token: BenchResult } | { missing: string };
}

/** The installed @c15t/backend's version (in the peer's own folder), or why it is not there. */
export function c15tVersion(dir = C15T_DIR): { version: string } | { missing: string } {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', '@c15t', 'backend', 'package.json'), 'utf8')) as { version: string };
    return { version: pkg.version };
  } catch {
    return {
      missing: `@c15t/backend is not installed in ${relative(REPO_ROOT, dir)} (\`node deploy/local/scripts/provision.js bench\` installs it with npm ci there)`,
    };
  }
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!;

export async function benchPeers(durationSec: number): Promise<PeerReport> {
  const log = process.env.BENCH_LOG ? (l: string) => console.log(`peer | ${l}`) : undefined;
  let c15t: PeerReport['c15t'];
  const installed = c15tVersion();
  const pgMissing = postgresMissing();
  if ('missing' in installed) c15t = installed;
  else if (pgMissing) c15t = { missing: pgMissing };
  else {
    try {
      c15t = { runs: await benchC15t(durationSec, installed.version, log) };
    } catch (err) {
      c15t = { missing: `could not run: ${reason(err)}` };
    }
  }
  if ('missing' in c15t) console.log(`peers: c15t not measured — ${c15t.missing}`);

  let hydra: PeerReport['hydra'];
  const binary = hydraBinary();
  if ('missing' in binary) hydra = binary;
  else {
    try {
      const h = await startHydra(binary.bin, binary.version, log);
      try {
        const token = await measure('Ory Hydra POST /oauth2/token (client_credentials)', {
          url: h.tokenUrl,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: h.tokenBody,
          durationSec,
          sideBySide: true,
        });
        hydra = { settings: h.settings, token };
      } finally {
        await h.stop();
      }
    } catch (err) {
      hydra = { missing: `could not run: ${reason(err)}` };
    }
  }
  if ('missing' in hydra) console.log(`peers: Ory Hydra not measured — ${hydra.missing}`);
  return { c15t, hydra };
}

/** The peers' runs, for the bench's main table and its CPU figures. */
export function peerResults(report: PeerReport): BenchResult[] {
  const out: BenchResult[] = [];
  if ('runs' in report.c15t) for (const r of report.c15t.runs) out.push(r.record, r.read);
  if ('token' in report.hydra) out.push(report.hydra.token);
  return out;
}
