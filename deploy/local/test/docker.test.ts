// The Docker path of npm start and the tests, for real: when a Docker engine answers, startInfra
// starts MongoDB and NATS containers through testcontainers. The engine here is podman's
// Docker-compatible socket (deploy/images/podman-docker.sh: `podman system service` and
// DOCKER_HOST, in namespaces of their own), the images the stand-ins built from Debian packages
// (deploy/images/stand-ins.sh: the local database server, Debian's nats-server), chosen with
// ACCORD_MONGO_IMAGE / ACCORD_NATS_IMAGE: no registry is needed. docker-check.js runs beside the
// socket and reports what it saw.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findBinary, itWithBinary } from '@accord/local-stack';

const REPO = resolve(__dirname, '..', '..', '..');
const root = typeof process.getuid === 'function' && process.getuid() === 0;
// podman runs the containers as root here; elsewhere the test says it is skipped and why.
const podman = root ? findBinary('podman') : undefined;

jest.setTimeout(900_000);

const dir = mkdtempSync(join(tmpdir(), 'accord-docker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a test on this machine can see of the host's network settings. */
const hostNetwork = () => ({
  ipForward: readFileSync('/proc/sys/net/ipv4/ip_forward', 'utf8').trim(),
  links: spawnSync('ip', ['-o', 'link'], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((l) => l.split(':')[1]?.trim())
    .filter(Boolean),
});

describe('startInfra with a Docker engine (podman through DOCKER_HOST)', () => {
  itWithBinary(podman, root ? 'podman' : 'podman (as root)')(
    'starts MongoDB and NATS containers from ACCORD_MONGO_IMAGE / ACCORD_NATS_IMAGE, serves through them, and removes them on stop',
    () => {
      const built = spawnSync(join(REPO, 'deploy', 'images', 'stand-ins.sh'), { encoding: 'utf8' });
      expect([built.status, built.stderr.includes('failed') ? built.stderr : '']).toEqual([0, '']);
      const images = Object.fromEntries(
        built.stdout
          .trim()
          .split('\n')
          .map((l) => l.split('=')),
      ) as Record<string, string>;

      const network = hostNetwork();
      const r = spawnSync(join(REPO, 'deploy', 'images', 'podman-docker.sh'), ['node', join(__dirname, 'docker-check.js'), dir], {
        encoding: 'utf8',
        env: { ...process.env, ...images },
      });
      expect([r.status, r.status === 0 ? '' : r.stderr]).toEqual([0, '']);
      const seen = JSON.parse(r.stdout.trim().split('\n').pop()!);
      expect(seen).toEqual({
        description: `MongoDB in Docker (${images.ACCORD_MONGO_IMAGE}), NATS in Docker (${images.ACCORD_NATS_IMAGE})`,
        running: [images.ACCORD_MONGO_IMAGE, images.ACCORD_NATS_IMAGE].sort(),
        found: { _id: 'x', n: 1 },
        published: 1,
        runningAfterStop: [],
      });
      // The containers' bridge, rules and forwarding were in the socket's own namespace.
      expect(hostNetwork()).toEqual(network);
    },
  );
});
