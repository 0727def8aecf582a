import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO, stateDir } from './cluster';
import { STARTED_MARK } from './global-setup';

export default function globalTeardown(): void {
  if (!fs.existsSync(path.join(stateDir(), STARTED_MARK))) return;
  const r = spawnSync(path.join(REPO, 'deploy', 'cluster', 'down.sh'), { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('deploy/cluster/down.sh failed (its output is above)');
}
