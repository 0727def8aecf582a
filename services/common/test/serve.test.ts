import { EventEmitter } from 'node:events';
import { credentials, makeGenericClientConstructor, type ServiceDefinition } from '@grpc/grpc-js';
import type { Connection } from 'mongoose';
import { implement, serveGrpc, ServicePeers, sleep } from '../src';
import { service as healthService } from 'grpc-health-check';
import pino from 'pino';

// A service of one method, JSON on the wire: enough to see calls drain, on a loopback port.
const json = { serialize: (v: unknown) => Buffer.from(JSON.stringify(v)), deserialize: (b: Buffer) => JSON.parse(b.toString()) as unknown };
const definition = {
  wait: {
    path: '/accord.test.v1.SlowService/Wait',
    requestStream: false,
    responseStream: false,
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  },
} as unknown as ServiceDefinition;
const Client = makeGenericClientConstructor(definition, 'SlowService');
const HealthClient = makeGenericClientConstructor(healthService, 'Health');
const logger = pino({ level: 'silent' });
// what is under test is the server's life cycle, not who calls: the one method is open to anyone
const access = { wait: { services: [], public: true as const } };
const auth = { peers: new ServicePeers(new Map()) };

/** A database connection that only records what happens to it. */
function fakeDatabase(steps: string[]): Connection {
  return Object.assign(new EventEmitter(), { close: async () => void steps.push('database closed') }) as unknown as Connection;
}

describe('serveGrpc', () => {
  it('stops in one order: calls under way answered, then the service released, then the database closed', async () => {
    const steps: string[] = [];
    let arrived!: () => void;
    const underWay = new Promise<void>((resolve) => (arrived = resolve));
    const served = await serveGrpc(
      { GRPC_HOST: '127.0.0.1', GRPC_PORT: 0, SHUTDOWN_GRACE_MS: 5_000 },
      {
        services: [
          {
            definition,
            implementation: implement({ wait: async (req: { ms: number }) => (arrived(), await sleep(req.ms), { waited: req.ms }) } as never, logger),
            access,
          },
        ],
        auth,
        database: fakeDatabase(steps),
        logger,
        release: async () => {
          await sleep(5);
          steps.push('released');
        },
      },
    );
    const client = new Client(`127.0.0.1:${served.port}`, credentials.createInsecure()) as unknown as {
      wait(req: unknown, cb: (err: Error | null, res: unknown) => void): void;
      close(): void;
    };
    try {
      const answered = new Promise((resolve, reject) =>
        client.wait({ ms: 200 }, (err, res) => {
          steps.push('call answered');
          return err ? reject(err) : resolve(res);
        }),
      );
      await underWay; // the handler runs (a fixed sleep here was too short on a loaded machine: the stop came first)
      await served.stop();
      await expect(answered).resolves.toEqual({ waited: 200 });
      expect(steps).toEqual(['call answered', 'released', 'database closed']);
    } finally {
      client.close();
    }
  });

  it('reports the server NOT_SERVING while the database connection is lost', async () => {
    const database = fakeDatabase([]);
    const served = await serveGrpc(
      { GRPC_HOST: '127.0.0.1', GRPC_PORT: 0, SHUTDOWN_GRACE_MS: 0 },
      { services: [{ definition, implementation: implement({ wait: async () => ({}) } as never, logger), access }], auth, database, logger },
    );
    const health = new HealthClient(`127.0.0.1:${served.port}`, credentials.createInsecure()) as unknown as {
      check(req: { service: string }, cb: (err: Error | null, res: { status: unknown }) => void): void;
      close(): void;
    };
    const status = (service: string) =>
      new Promise<unknown>((resolve, reject) => health.check({ service }, (err, res) => (err ? reject(err) : resolve(res.status))));
    expect(await status('accord.test.v1.SlowService')).toBe('SERVING');
    database.emit('disconnected');
    expect(await status('accord.test.v1.SlowService')).toBe('NOT_SERVING');
    database.emit('reconnected');
    expect(await status('accord.test.v1.SlowService')).toBe('SERVING');
    health.close();
    await served.stop();
  });
});
