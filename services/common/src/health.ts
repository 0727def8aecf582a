import { createClient } from './grpc-client';
import type { GrpcTls } from './grpc-tls';

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

/** The readiness of one downstream server, asked over one long-lived channel. */
export interface HealthProbe {
  /** True when the server answers SERVING ("" = the whole server) within the probe's deadline. */
  serving(): Promise<boolean>;
  close(): void;
}

/**
 * A readiness probe for a server that is asked often (a gateway's /readyz, polled by every
 * kubelet and load balancer): one channel for its lifetime instead of a new connection per
 * question, and concurrent questions share one call. (A fresh connection per check, with four
 * downstream servers behind one /readyz, missed its deadline under load and turned the gateway
 * unready while every service was serving.) Answers are not cached: a service that stops is
 * reported by the next question.
 */
export function healthProbe(address: string, opts: { timeoutMs?: number; tls?: GrpcTls } = {}): HealthProbe {
  const client = createClient(healthDefinition, address, { timeoutMs: opts.timeoutMs ?? 2_000, retries: 0, tls: opts.tls });
  let inflight: Promise<boolean> | undefined;
  return {
    serving() {
      inflight ??= client
        .check({ service: '' })
        .then(
          (res) => res.status === SERVING,
          () => false,
        )
        .then((ok) => {
          inflight = undefined;
          return ok;
        });
      return inflight;
    },
    close: () => client.close(),
  };
}
