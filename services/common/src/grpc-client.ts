import { Client, credentials, Metadata, status, type CallOptions, type ServiceError } from '@grpc/grpc-js';
import { sleep } from './async';
import { currentRequestId, REQUEST_ID_HEADER } from './context';
import { isServiceError, SERVER_UNAVAILABLE_KEY } from './errors';
import type { GrpcTls } from './grpc-tls';
import { SERVICE_TOKEN_HEADER, type ServiceTokenSigner } from './service-identity';

interface UnaryMethodDefinition {
  path: string;
  requestStream: false;
  responseStream: false;
  requestSerialize: (value: never) => Buffer;
  responseDeserialize: (bytes: Buffer) => unknown;
}

export interface CallOpts {
  /** Deadline in milliseconds from now. */
  timeoutMs?: number;
  metadata?: Metadata;
}

/** A promise-returning client derived from a ts-proto service definition. */
export type PromiseClient<D> = {
  [K in keyof D]: D[K] extends { requestSerialize: (value: infer Req) => Buffer; responseDeserialize: (bytes: Buffer) => infer Res }
    ? (request: Req, opts?: CallOpts) => Promise<Res>
    : never;
} & { close(): void };

export interface ClientOptions {
  /** Default deadline for every call (ms). */
  timeoutMs?: number;
  /** Attempts on UNAVAILABLE when the call never reached a server, with backoff. */
  retries?: number;
  /** Accord's own callers: every call proves this service identity (x-accord-service). */
  identity?: ServiceTokenSigner;
  /** Mutual TLS (grpcTls): this service's certificate, the server verified against Accord's CA. Absent: plaintext. */
  tls?: GrpcTls;
}

/**
 * One typed client per downstream service: every call has a deadline, carries the current
 * request id and, for Accord's own callers, their service token, and is retried on UNAVAILABLE.
 */
export function createClient<D extends object>(definition: D, address: string, options: ClientOptions = {}): PromiseClient<D> {
  const client = new Client(address, options.tls?.channel ?? credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    // A restarted service is reached within a second: grpc-js' default backoff grows to 120 s
    // between connection attempts, so after a short outage every call failed with UNAVAILABLE
    // long after the service was back (e2e/faults/consent-kill.test.ts).
    'grpc.initial_reconnect_backoff_ms': 100,
    'grpc.min_reconnect_backoff_ms': 100,
    'grpc.max_reconnect_backoff_ms': 1_000,
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
  });
  const timeoutMs = options.timeoutMs ?? 5_000;
  const retries = options.retries ?? 2;
  const out: Record<string, unknown> = { close: () => client.close() };

  for (const [name, def] of Object.entries(definition as Record<string, UnaryMethodDefinition>)) {
    if (def.requestStream || def.responseStream) continue;
    const once = (request: unknown, opts: CallOpts) =>
      new Promise<unknown>((resolve, reject) => {
        const metadata = opts.metadata?.clone() ?? new Metadata();
        const requestId = currentRequestId();
        if (requestId && !metadata.get(REQUEST_ID_HEADER).length) metadata.set(REQUEST_ID_HEADER, requestId);
        // a call that carries its own credential (an operator's admin token, a caller's access token) speaks for itself
        if (options.identity && !metadata.get('authorization').length) metadata.set(SERVICE_TOKEN_HEADER, options.identity.token());
        const callOptions: Partial<CallOptions> = { deadline: Date.now() + (opts.timeoutMs ?? timeoutMs) };
        client.makeUnaryRequest(
          def.path,
          (v: unknown) => def.requestSerialize(v as never),
          def.responseDeserialize,
          request,
          metadata,
          callOptions,
          (err: ServiceError | null, res?: unknown) => (err ? reject(err) : resolve(res)),
        );
      });
    out[name] = async (request: unknown, opts: CallOpts = {}) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await once(request, opts);
        } catch (err) {
          if (attempt >= retries || !isServiceError(err) || err.code !== status.UNAVAILABLE) throw err;
          if (err.metadata?.get(SERVER_UNAVAILABLE_KEY).length) throw err; // a server answered: its database is down
          await sleep(100 * 3 ** attempt);
        }
      }
    };
  }
  return out as PromiseClient<D>;
}
