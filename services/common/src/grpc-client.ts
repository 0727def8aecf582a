import { Client, credentials, Metadata, status, type CallOptions, type ServiceError } from '@grpc/grpc-js';
import { sleep } from './async';
import { currentRequestId, REQUEST_ID_HEADER } from './context';
import { isServiceError, SERVER_UNAVAILABLE_KEY } from './errors';
import type { GrpcTls } from './grpc-tls';
import { SERVICE_TOKEN_HEADER, type ServiceTokenSigner } from './service-identity';

interface MethodDefinition {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestSerialize: (value: never) => Buffer;
  responseDeserialize: (bytes: Buffer) => unknown;
}

export interface CallOpts {
  /** Deadline in milliseconds from now. */
  timeoutMs?: number;
  metadata?: Metadata;
}

/**
 * A promise-returning client derived from a ts-proto service definition; a server-streaming RPC
 * answers an async iterable of its messages (leaving the loop early cancels the call).
 */
export type PromiseClient<D> = {
  [K in keyof D]: D[K] extends { requestStream: false; requestSerialize: (value: infer Req) => Buffer; responseDeserialize: (bytes: Buffer) => infer Res }
    ? D[K] extends { responseStream: true }
      ? (request: Req, opts?: CallOpts) => AsyncIterable<Res>
      : (request: Req, opts?: CallOpts) => Promise<Res>
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
 * One typed client per downstream service: every call carries the current request id and, for
 * Accord's own callers, their service token, and is retried on UNAVAILABLE (a stream only until
 * its first message); a unary call has a deadline, a stream only when `timeoutMs` is given (an
 * export runs as long as its client reads).
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

  const metadataOf = (opts: CallOpts) => {
    const metadata = opts.metadata?.clone() ?? new Metadata();
    const requestId = currentRequestId();
    if (requestId && !metadata.get(REQUEST_ID_HEADER).length) metadata.set(REQUEST_ID_HEADER, requestId);
    // a call that carries its own credential (an operator's admin token, a caller's access token) speaks for itself
    if (options.identity && !metadata.get('authorization').length) metadata.set(SERVICE_TOKEN_HEADER, options.identity.token());
    return metadata;
  };
  /** Whether a failed call may be tried again: UNAVAILABLE before any server answered it (one that did says its database is down). */
  const retryable = (err: unknown, attempt: number) =>
    attempt < retries && isServiceError(err) && err.code === status.UNAVAILABLE && !err.metadata?.get(SERVER_UNAVAILABLE_KEY).length;

  for (const [name, def] of Object.entries(definition as Record<string, MethodDefinition>)) {
    if (def.requestStream) continue;
    if (def.responseStream) {
      out[name] = async function* stream(request: unknown, opts: CallOpts = {}) {
        for (let attempt = 0; ; attempt++) {
          const call = client.makeServerStreamRequest(
            def.path,
            (v: unknown) => def.requestSerialize(v as never),
            def.responseDeserialize,
            request,
            metadataOf(opts),
            opts.timeoutMs !== undefined ? { deadline: Date.now() + opts.timeoutMs } : {},
          );
          let received = false;
          let ended = false;
          try {
            for await (const message of call) {
              received = true;
              yield message;
            }
            ended = true;
            return;
          } catch (err) {
            ended = true;
            if (received || !retryable(err, attempt)) throw err;
          } finally {
            if (!ended) call.cancel(); // the caller left the loop
          }
          await sleep(100 * 3 ** attempt);
        }
      };
      continue;
    }
    const once = (request: unknown, opts: CallOpts) =>
      new Promise<unknown>((resolve, reject) => {
        const metadata = metadataOf(opts);
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
          if (!retryable(err, attempt)) throw err;
          await sleep(100 * 3 ** attempt);
        }
      }
    };
  }
  return out as PromiseClient<D>;
}
