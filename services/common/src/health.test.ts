import { Server, ServerCredentials, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import { healthProbe } from './health';

// A bare grpc.health.v1 server that counts the calls and the connections it is asked on.
async function healthServer(status: { value: number; delayMs: number }) {
  const server = new Server();
  let calls = 0;
  const peers = new Set<string>();
  server.addService(
    {
      check: {
        path: '/grpc.health.v1.Health/Check',
        requestStream: false,
        responseStream: false,
        requestSerialize: (b: Buffer) => b,
        requestDeserialize: (b: Buffer) => b,
        responseSerialize: (b: Buffer) => b,
        responseDeserialize: (b: Buffer) => b,
      },
    },
    {
      check: (call: ServerUnaryCall<Buffer, Buffer>, done: sendUnaryData<Buffer>) => {
        calls++;
        peers.add(call.getPeer());
        setTimeout(() => done(null, Buffer.from([0x08, status.value])), status.delayMs);
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { address: `127.0.0.1:${port}`, calls: () => calls, peers, stop: () => server.forceShutdown() };
}

describe('healthProbe', () => {
  it('asks over one channel, and concurrent questions share one call', async () => {
    const status = { value: 1, delayMs: 50 };
    const srv = await healthServer(status);
    // a deadline no loaded machine overruns: this test is about sharing, the next one about the deadline
    const probe = healthProbe(srv.address, { timeoutMs: 30_000 });
    try {
      expect(await Promise.all(Array.from({ length: 20 }, () => probe.serving()))).toEqual(Array(20).fill(true));
      expect(srv.calls()).toBe(1);
      status.value = 2; // NOT_SERVING: the next question sees it
      expect(await probe.serving()).toBe(false);
      status.value = 1;
      expect(await probe.serving()).toBe(true);
      expect(srv.calls()).toBe(3);
      expect(srv.peers.size).toBe(1); // one connection for every question
    } finally {
      probe.close();
      srv.stop();
    }
  });

  it('answers false past its deadline and when nothing listens', async () => {
    const srv = await healthServer({ value: 1, delayMs: 500 });
    const slow = healthProbe(srv.address, { timeoutMs: 100 });
    const nobody = healthProbe('127.0.0.1:1', { timeoutMs: 300 });
    try {
      expect(await slow.serving()).toBe(false);
      expect(await nobody.serving()).toBe(false);
    } finally {
      slow.close();
      nobody.close();
      srv.stop();
    }
  });
});
