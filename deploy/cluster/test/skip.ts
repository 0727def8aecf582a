// Whether the cluster tests can run here, and if not, the one line that says how to get there.
import { spawnSync } from 'node:child_process';
import { appVersion, builtBinaries, SERVICES } from './cluster';

const HOW = '`npm run images && npm run test:cluster` builds them (as root, with Go; about 25 min the first time, nothing the next)';

/**
 * null when the cluster tests can run: as root, with the cluster's programs built
 * (deploy/cluster/build.sh) and the service images in podman's storage (npm run images).
 * Under `npm run test:cluster` (ACCORD_CLUSTER_REQUIRED=1) always null: what is missing fails.
 * ACCORD_CLUSTER_LATER=1: .ci/run's `npm test`, whose cluster job runs them afterwards.
 */
export function clusterSkipReason(): string | null {
  if (process.env.ACCORD_CLUSTER_REQUIRED === '1') return null;
  if (process.env.ACCORD_CLUSTER_LATER === '1') return 'the cluster job of .ci/run runs them next (npm run test:cluster)';
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'they need root (namespaces, mounts, cgroups)';
  if (!builtBinaries()) return `the cluster's programs are not built: ${HOW}`;
  const tag = appVersion();
  const podman = spawnSync('podman', ['image', 'exists', ...SERVICES.map((s) => `localhost/accord/${s}:${tag}`)], {
    env: { ...process.env, CONTAINERS_CONF: `${__dirname}/../../images/containers.conf` },
  });
  if (podman.error || podman.status !== 0) return `the service images (localhost/accord/*:${tag}) are not built: ${HOW}`;
  return null;
}
