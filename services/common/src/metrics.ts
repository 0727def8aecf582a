import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { z } from 'zod';
import type { Logger } from './logger';

/**
 * One Prometheus registry per process. Metrics are defined once at module level (here and in
 * each service's `metrics.ts`), so several services started in one test process share them.
 * No label ever holds an id: routes are templates, methods are names from the proto, outcomes
 * and results are small fixed sets.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** Default metrics ports, one per process, so that `npm start` needs no configuration. */
export const DEFAULT_METRICS_PORTS = { gateway: 9464, oauth: 9465, consent: 9466, dataprocessing: 9467, webhook: 9468 } as const;

/** `METRICS_PORT` (0 = a free port, `off` = no metrics server) and `METRICS_HOST`. */
export const metricsEnv = (port: number) => ({
  METRICS_PORT: z
    .union([z.literal('off'), z.coerce.number().int().min(0).max(65535)])
    .default(port)
    .transform((v) => (v === 'off' ? null : v)),
  METRICS_HOST: z.string().min(1).default('0.0.0.0'),
});

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** RED of gRPC servers, named as go-grpc-prometheus names them. */
export const grpcServerHandled = new Counter({
  name: 'grpc_server_handled_total',
  help: 'gRPC calls completed on the server, by method and status code.',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
  registers: [metricsRegistry],
});
export const grpcServerHandling = new Histogram({
  name: 'grpc_server_handling_seconds',
  help: 'Time to handle a gRPC call on the server, by method.',
  labelNames: ['grpc_service', 'grpc_method'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [metricsRegistry],
});

/** RED of HTTP servers (OpenTelemetry's semantic-convention names, Prometheus style). */
export const httpServerDuration = new Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'Duration of HTTP requests, by method, route template and status code.',
  labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [metricsRegistry],
});

export { Counter, Gauge, Histogram };

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Serves `GET /metrics` (Prometheus text format) on its own port, apart from the API. */
export async function startMetricsServer(opts: { port: number; host?: string; logger: Logger }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metricsRegistry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
      (err: unknown) => {
        opts.logger.error({ err }, 'collecting metrics failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  opts.logger.info({ port }, 'metrics server listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Starts the metrics server when configured; main.ts calls it beside the service's start. */
export async function maybeStartMetrics(config: { METRICS_PORT: number | null; METRICS_HOST: string }, logger: Logger): Promise<MetricsServer | null> {
  return config.METRICS_PORT === null ? null : startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST, logger });
}

/**
 * What each main.ts runs: the metrics server (when configured), then the service; stopping
 * stops the service, then the metrics server, then tracing (flushing its last spans).
 */
export async function runObserved(
  config: { METRICS_PORT: number | null; METRICS_HOST: string },
  logger: Logger,
  tracing: { stop(): Promise<void> },
  start: () => Promise<{ stop(): Promise<void> }>,
): Promise<{ logger: Logger; stop(): Promise<void> }> {
  const metrics = await maybeStartMetrics(config, logger);
  const service = await start();
  return {
    logger,
    async stop() {
      await service.stop();
      await metrics?.close();
      await tracing.stop();
    },
  };
}
