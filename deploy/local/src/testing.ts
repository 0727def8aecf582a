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
