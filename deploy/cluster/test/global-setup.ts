// The cluster project's setup: the cluster up (deploy/cluster/up.sh) when the tests can run and it
// is not up yet, else the one line saying why they cannot. The teardown ends only a cluster this
// setup started.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO, stateDir } from './cluster';
import { clusterSkipReason } from './skip';

export const STARTED_MARK = 'started-by-jest';

export default function globalSetup(): void {
  const reason = clusterSkipReason();
  if (reason) {
    process.stderr.write(`\n[cluster] the cluster tests are skipped: ${reason}\n`);
    return;
  }
  const wasUp = fs.existsSync(path.join(stateDir(), 'env'));
  const r = spawnSync(path.join(REPO, 'deploy', 'cluster', 'up.sh'), { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('deploy/cluster/up.sh failed (its output is above)');
  if (!wasUp) fs.writeFileSync(path.join(stateDir(), STARTED_MARK), '');
}
