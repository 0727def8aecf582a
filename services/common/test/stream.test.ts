import { status, type ServiceDefinition, type ServiceError } from '@grpc/grpc-js';
import pino from 'pino';
import { createClient, FailedPreconditionError, fieldErrorsOf, implement, ServicePeers, sleep, startGrpcServer, type RunningGrpcServer } from '../src';

// A service of one server-streaming method, JSON on the wire, on a loopback port.
const json = { serialize: (v: unknown) => Buffer.from(JSON.stringify(v)), deserialize: (b: Buffer) => JSON.parse(b.toString()) as unknown };
const definition = {
  count: {
    path: '/accord.test.v1.CountService/Count',
    requestStream: false as const,
    responseStream: true as const,
    requestSerialize: json.serialize as (v: { to: number; fail?: string }) => Buffer,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize as (b: Buffer) => { n: number },
  },
};
const logger = pino({ level: 'silent' });

describe('a server-streaming RPC (implement, the guard, createClient)', () => {
  let server: RunningGrpcServer;
  let client: ReturnType<typeof createClient<typeof definition>>;
  /** What the handler did: the numbers it yielded, and whether its generator was closed. */
  const seen = { yielded: 0, closed: false };

  beforeAll(async () => {
    const impl = {
      async *count(req: { to: number; fail?: string }) {
        try {
          if (req.fail === 'first') throw new FailedPreconditionError('refused', [{ field: 'to', message: 'is refused' }]);
          for (let n = 1; n <= req.to; n++) {
            if (req.fail === 'midway' && n === 3) throw new Error('the database went away');
            seen.yielded = n;
            yield { n };
            await sleep(1);
          }
        } finally {
          seen.closed = true;
        }
      },
    };
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [
        {
          definition: definition as unknown as ServiceDefinition,
          implementation: implement(impl as never, logger),
          access: { count: { services: [], public: true } },
        },
      ],
      auth: { peers: new ServicePeers(new Map()) },
      logger,
    });
    client = createClient(definition, `127.0.0.1:${server.port}`, { retries: 0 });
  });
  afterAll(async () => {
    client.close();
    await server.shutdown(0);
  });
  beforeEach(() => Object.assign(seen, { yielded: 0, closed: false }));

  test('sends what the handler yields, in order, and ends', async () => {
    const got: number[] = [];
    for await (const m of client.count({ to: 5 })) got.push(m.n);
    expect(got).toEqual([1, 2, 3, 4, 5]);
  });

  test('a failure before the first message is the call’s status, with its fields; after it, the stream ends with the status', async () => {
    const refused = client.count({ to: 5, fail: 'first' });
    const refusal = await refused[Symbol.asyncIterator]()
      .next()
      .catch((err: unknown) => err);
    expect(refusal).toMatchObject({ code: status.FAILED_PRECONDITION, details: 'refused' });
    expect(fieldErrorsOf(refusal as ServiceError)).toEqual([{ field: 'to', message: 'is refused' }]);
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const m of client.count({ to: 5, fail: 'midway' })) got.push(m.n);
      })(),
    ).rejects.toMatchObject({ code: status.INTERNAL });
    expect(got).toEqual([1, 2]);
  });

  test('a caller leaving the loop cancels the call: the handler stops reading', async () => {
    for await (const m of client.count({ to: 100_000 })) if (m.n === 2) break;
    for (let i = 0; i < 100 && !seen.closed; i++) await sleep(10);
    expect(seen.closed).toBe(true);
    expect(seen.yielded).toBeLessThan(100_000);
  });
});
