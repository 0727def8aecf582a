import { createClient } from './grpc-client';

// The standard grpc.health.v1 Check call, built on our client factory.
// Hand-encoded: the request is `{ service: string }` (field 1) and the answer `{ status: enum }` (field 1).
const healthDefinition = {
  check: {
    path: '/grpc.health.v1.Health/Check',
    requestStream: false as const,
    responseStream: false as const,
    requestSerialize: (value: { service: string }): Buffer => {
      const name = Buffer.from(value.service, 'utf8');
      if (name.length > 127) throw new Error('health service name too long');
      return name.length ? Buffer.concat([Buffer.from([0x0a, name.length]), name]) : Buffer.alloc(0);
    },
    responseDeserialize: (bytes: Buffer): { status: number } => ({ status: bytes.length >= 2 && bytes[0] === 0x08 ? bytes[1]! : 0 }),
  },
};

export const SERVING = 1;

/** True when the service at `address` answers SERVING for `service` ("" = the whole server). */
export async function isServing(address: string, service = '', timeoutMs = 1_000): Promise<boolean> {
  const client = createClient(healthDefinition, address, { timeoutMs, retries: 0 });
  try {
    const res = await client.check({ service });
    return res.status === SERVING;
  } catch {
    return false;
  } finally {
    client.close();
  }
}
