import {
  Server,
  ServerCredentials,
  status as Code,
  type Metadata,
  type ServerUnaryCall,
  type ServerWritableStream,
  type sendUnaryData,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { addReflection } from './reflection';
import { grpcServerHandled, grpcServerHandling } from './metrics';
import { normalizeRequestId, requestContext, REQUEST_ID_HEADER } from './context';
import { toServiceError } from './errors';
import { authorizeCall, type Caller, type GrpcAuth, type RpcAccess } from './grpc-auth';
import { identityOfCertificate } from './grpc-tls';
import type { Logger } from './logger';
import { followDatabase } from './mongo';
import type { Connection } from 'mongoose';

export interface CallContext {
  requestId: string;
  metadata: Metadata;
  /** When the caller stops waiting (epoch ms; Infinity without a deadline). */
  deadlineMs: number;
  /** Who is calling, as the server authenticated them against the RPC's row of its access table. */
  caller: Caller;
}

/** The caller of each call in flight, set by the server's authorization before the handler runs. */
const callers = new WeakMap<object, Caller>();

function deadlineMs(call: ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>): number {
  const d = call.getDeadline();
  return d instanceof Date ? d.getTime() : d;
}

/**
 * The named members of T without its string index signature: generated server interfaces extend
 * UntypedServiceImplementation (`[name: string]: ...`), which would otherwise accept any key.
 */
export type KnownKeys<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

/**
 * Turns `handleUnaryCall<Req, Res>` members of a generated server interface into async functions,
 * and `handleServerStreamingCall<Req, Res>` members into async iterables of the messages to send.
 */
export type AsyncService<S> = {
  [K in keyof KnownKeys<S>]: KnownKeys<S>[K] extends (call: ServerUnaryCall<infer Req, infer Res>, cb: sendUnaryData<infer _R>) => void
    ? (request: Req, ctx: CallContext) => Promise<Res>
    : KnownKeys<S>[K] extends (call: ServerWritableStream<infer Req, infer Res>) => void
      ? (request: Req, ctx: CallContext) => AsyncIterable<Res>
      : never;
};

/** What a service's gRPC handlers implement: one async function per RPC of the generated server `S`. */
export type Handlers<S> = AsyncService<S>;

/**
 * Adapts async handlers to grpc-js: runs each call in a request context (request id from
 * metadata), maps thrown errors through the error model, and logs unknown errors once. A
 * server-streaming call writes what its handler yields, waiting while the client is slow to read,
 * and stops the handler when the client cancels (the guard, when there is one, hears how it ended).
 */
export function implement<S extends UntypedServiceImplementation>(impl: AsyncService<S>, logger: Logger): S {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(impl as Record<string, (req: unknown, ctx: CallContext) => Promise<unknown> | AsyncIterable<unknown>>)) {
    const failure = (err: unknown) => toServiceError(err, (e) => logger.error({ err: e, method: name }, 'unhandled error in gRPC handler')) as never;
    out[name] = (call: ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>, callback?: sendUnaryData<unknown>) => {
      const requestId = normalizeRequestId(call.metadata.get(REQUEST_ID_HEADER)[0]);
      requestContext.run({ requestId }, () => {
        const caller = callers.get(call) ?? { kind: 'public' };
        const ctx: CallContext = { requestId, metadata: call.metadata, deadlineMs: deadlineMs(call), caller };
        const answer = fn.call(impl, call.request, ctx);
        if (Symbol.asyncIterator in answer) {
          // a server-streaming handler: grpc-js passed no callback (the guard's only hears the outcome)
          const stream = call as ServerWritableStream<unknown, unknown>;
          streamOut(stream, answer).then(
            () => callback?.(null, null),
            (err: unknown) => {
              const e = failure(err);
              callback?.(e, null);
              stream.emit('error', e);
            },
          );
        } else
          answer.then(
            (res) => callback!(null, res),
            (err: unknown) => callback!(failure(err), null),
          );
      });
    };
  }
  return out as S;
}

/** Writes a handler's messages to a server stream (back-pressure: one write waits for the last to drain) and ends it; stops early when the client cancels. */
async function streamOut(call: ServerWritableStream<unknown, unknown>, messages: AsyncIterable<unknown>): Promise<void> {
  const it = messages[Symbol.asyncIterator]();
  const cancelled = new Promise<void>((resolve) => call.once('cancelled', () => resolve()));
  try {
    for (;;) {
      if (call.cancelled) return;
      const next = await it.next();
      if (next.done) break;
      if (!call.write(next.value)) await Promise.race([new Promise((resolve) => call.once('drain', resolve)), cancelled]);
    }
    call.end();
  } finally {
    // the client left (or a write failed): the handler's reads stop here
    if (call.cancelled) await it.return?.();
  }
}

export interface GrpcServiceRegistration {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
  /** Who may call each RPC (one row per method of the definition; see AccessTable). */
  access: Record<string, RpcAccess>;
  /** Fully qualified service name, reported by the health service (default: serviceName of the definition). */
  name?: string;
}

/** A service's fully qualified name, as its methods' paths give it: `/accord.consent.v1.ConsentService/Create` → `accord.consent.v1.ConsentService`. */
export function serviceName(definition: ServiceDefinition): string {
  const path = Object.values(definition)[0]?.path;
  const name = path?.split('/')[1];
  if (!name) throw new Error('a gRPC service definition without methods has no name');
  return name;
}

export interface RunningGrpcServer {
  server: Server;
  port: number;
  /** The plaintext health-only port, when asked for. */
  healthPort?: number;
  health: HealthImplementation;
  /** Reports every service of this server SERVING or NOT_SERVING (e.g. while its database is down). */
  setServing(serving: boolean): void;
  /** Marks NOT_SERVING, drains in-flight calls for up to graceMs, then forces. */
  shutdown(graceMs: number): Promise<void>;
}

/** The methods of a service definition that have no row in its access table: the server refuses to start with any. */
export function unguardedMethods(s: Pick<GrpcServiceRegistration, 'definition' | 'access'>): string[] {
  return Object.keys(s.definition).filter((key) => !Object.hasOwn(s.access, key));
}

/**
 * Wraps every method (unary or server-streaming): authenticates and authorizes the call against its row of the access
 * table before the handler runs (a refusal never reaches it), and counts and times it (RED per
 * method; labels are proto names).
 */
function guardAndInstrument(s: Required<GrpcServiceRegistration>, auth: GrpcAuth, logger: Logger): UntypedServiceImplementation {
  const out: UntypedServiceImplementation = {};
  for (const [key, fn] of Object.entries(s.implementation)) {
    const method = (s.definition[key]?.path ?? key).split('/').pop()!;
    const access = s.access[key]!;
    const rpc = `${s.name}/${method}`;
    // a server-streaming call has no callback: its handler ends the stream, and tells the guard how it ended
    out[key] = (call: ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>, callback?: sendUnaryData<unknown>) => {
      const end = grpcServerHandling.startTimer({ grpc_service: s.name, grpc_method: method });
      const done: sendUnaryData<unknown> = (err, ...rest) => {
        end();
        const code = err ? ((err as { code?: number }).code ?? Code.UNKNOWN) : Code.OK;
        grpcServerHandled.inc({ grpc_service: s.name, grpc_method: method, grpc_code: Code[code] ?? 'UNKNOWN' });
        callback?.(err, ...rest);
      };
      const peer = auth.tls ? identityOfCertificate(call.getAuthContext()?.sslPeerCertificate) : undefined;
      authorizeCall(rpc, access, call.metadata, call.request, auth, peer).then(
        ({ caller, settle }) => {
          callers.set(call, caller);
          const answer: sendUnaryData<unknown> = settle
            ? (err, ...rest) => {
                settle(err ?? undefined);
                done(err, ...rest);
              }
            : done;
          (fn as (c: typeof call, cb: typeof callback) => void)(call, answer);
        },
        (err: unknown) => {
          const refusal = toServiceError(err, (e) => logger.error({ err: e, method: rpc }, 'error while authorizing a gRPC call')) as never;
          done(refusal, null);
          if (!callback) call.emit('error', refusal);
        },
      );
    };
  }
  return out;
}

/**
 * Starts a gRPC server with the standard health protocol and server reflection (v1 and v1alpha,
 * for grpcurl and friends); every service is SERVING once bound, and, given the service's
 * `database`, NOT_SERVING while the connection to it is lost (followDatabase).
 */
export async function startGrpcServer(opts: {
  host?: string;
  port: number;
  services: GrpcServiceRegistration[];
  /** How callers are authenticated; every RPC is authorized against its service's access table. */
  auth: GrpcAuth;
  logger: Logger;
  database?: Connection;
  /** A plaintext port serving only the health service (the kubelet's probes under mutual TLS). */
  healthPort?: number;
}): Promise<RunningGrpcServer> {
  const services = opts.services.map((s) => ({ ...s, name: s.name ?? serviceName(s.definition) }));
  for (const s of services) {
    const missing = unguardedMethods(s);
    if (missing.length) throw new Error(`${s.name}: no access row for ${missing.join(', ')} (every RPC declares who may call it)`);
  }
  const server = new Server({ 'grpc.max_receive_message_length': 8 * 1024 * 1024 });
  const statuses: Record<string, 'SERVING' | 'NOT_SERVING'> = { '': 'NOT_SERVING' };
  for (const s of services) statuses[s.name] = 'NOT_SERVING';
  const health = new HealthImplementation(statuses);
  health.addToServer(server);
  for (const s of services) server.addService(s.definition, guardAndInstrument(s, opts.auth, opts.logger));
  addReflection(
    server,
    services.map((s) => s.name),
  );

  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${opts.host ?? '0.0.0.0'}:${opts.port}`, opts.auth.tls?.server ?? ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  let healthServer: Server | undefined;
  let healthPort: number | undefined;
  if (opts.healthPort !== undefined) {
    healthServer = new Server();
    health.addToServer(healthServer);
    const hs = healthServer;
    const hp = await new Promise<number>((resolve, reject) =>
      hs.bindAsync(`${opts.host ?? '0.0.0.0'}:${opts.healthPort}`, ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    healthPort = hp;
    opts.logger.info({ port: hp }, 'gRPC health port listening (plaintext, health only)');
  }
  for (const name of Object.keys(statuses)) health.setStatus(name, 'SERVING');
  opts.logger.info({ port, tls: opts.auth.tls ? 'mutual' : 'off' }, 'gRPC server listening');

  let shuttingDown = false;
  const running: RunningGrpcServer = {
    server,
    port,
    healthPort,
    health,
    setServing(serving: boolean) {
      if (shuttingDown) return;
      for (const name of Object.keys(statuses)) health.setStatus(name, serving ? 'SERVING' : 'NOT_SERVING');
    },
    async shutdown(graceMs: number) {
      shuttingDown = true;
      for (const name of Object.keys(statuses)) health.setStatus(name, 'NOT_SERVING');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          opts.logger.warn('drain timed out; forcing gRPC shutdown');
          server.forceShutdown();
          resolve();
        }, graceMs);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      // answering NOT_SERVING to the kubelet until the calls are drained
      healthServer?.forceShutdown();
    },
  };
  if (opts.database) followDatabase(opts.database, (serving) => running.setServing(serving), opts.logger);
  return running;
}

/** What serveGrpc reads of a service's config (grpcPortEnv and baseEnv). */
export interface GrpcServeConfig {
  GRPC_HOST: string;
  GRPC_PORT: number;
  GRPC_HEALTH_PORT?: number;
  SHUTDOWN_GRACE_MS: number;
}

export interface ServedService {
  port: number;
  server: RunningGrpcServer;
  /** Drains calls (up to SHUTDOWN_GRACE_MS), runs `release`, then closes the database. */
  stop(): Promise<void>;
}

/**
 * A service's gRPC server where its config says (GRPC_HOST, GRPC_PORT), serving while its
 * database is reachable, with the one stop sequence every service follows: no new calls and the
 * running ones drained first, then `release` (the service's own jobs, clients and connections, in
 * the order it needs), the database last — whatever still runs may need it until then.
 */
export async function serveGrpc(
  config: GrpcServeConfig,
  opts: { services: GrpcServiceRegistration[]; auth: GrpcAuth; database: Connection; logger: Logger; release?: () => Promise<void> | void },
): Promise<ServedService> {
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    services: opts.services,
    auth: opts.auth,
    database: opts.database,
    logger: opts.logger,
    healthPort: config.GRPC_HEALTH_PORT,
  });
  return {
    port: server.port,
    server,
    async stop() {
      await server.shutdown(config.SHUTDOWN_GRACE_MS);
      await opts.release?.();
      await opts.database.close();
    },
  };
}
