/// <reference types="jest" />
import { randomBytes } from 'node:crypto';
import { withDatabase } from './infra';

/**
 * Isolation for tests that share one MongoDB and one NATS: a fresh database and a fresh NATS
 * namespace (stream/subject/consumer prefix) per call.
 */
export function testEnv(name: string): { mongoUrl: string; natsUrl: string; natsPrefix: string } {
  const mongo = process.env.MONGO_URL;
  const nats = process.env.NATS_URL;
  if (!mongo || !nats) throw new Error('MONGO_URL and NATS_URL are not set: run tests through jest (globalSetup provides them)');
  const suffix = randomBytes(4).toString('hex');
  const safe = name
    .replace(/[^a-zA-Z0-9]/g, '')
    .slice(0, 20)
    .toLowerCase();
  return { mongoUrl: withDatabase(mongo, `t_${safe}_${suffix}`), natsUrl: nats, natsPrefix: `t${safe}${suffix}` };
}

/**
 * `it` for a test that needs a program (a path from findBinary, or undefined when it is missing).
 * Without the program the test is skipped locally, with the reason in its name; in CI
 * (`CI` set and not `false`) it runs and fails, so a missing binary can never pass a CI run
 * silently.
 */
export function itWithBinary(binary: string | undefined, program: string): jest.It {
  if (binary) return it;
  const ci = !!process.env.CI && process.env.CI !== 'false';
  if (ci) {
    return ((name: string) =>
      it(name, () => {
        throw new Error(`${program} is not installed, and CI must run "${name}" (see .ci/run for how CI installs it)`);
      })) as unknown as jest.It;
  }
  return ((name: string, fn?: jest.ProvidesCallback, timeout?: number) =>
    it.skip(`${name} (skipped: ${program} is not installed)`, fn, timeout)) as unknown as jest.It;
}
