/**
 * OpenTelemetry tracing. `startTracing` must run before anything else is required (first line
 * of each main.ts), so that the http, express and gRPC instrumentations can patch those modules.
 * Tracing is on when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set,
 * exporting over OTLP/HTTP; otherwise nothing is started and every helper below is a no-op.
 * The standard OTEL_* variables (sampler, batch delays, headers) apply.
 *
 * Trace context crosses process boundaries as W3C `traceparent`: gRPC metadata and HTTP
 * headers through the instrumentations, NATS message headers and stored webhook deliveries
 * through the helpers here. This module imports only @opentelemetry packages.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, trace, type Attributes, type Context } from '@opentelemetry/api';

export const TRACER_NAME = 'accord';

let shutdown: (() => Promise<void>) | undefined;

export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED !== 'true';
}

/** Starts the OpenTelemetry SDK for `service` when an OTLP endpoint is configured. */
export function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): { stop(): Promise<void> } {
  if (!tracingConfigured(env) || shutdown) return { stop: async () => shutdown?.() };
  // Traces only: metrics are Prometheus' (/metrics), logs are pino's (stdout).
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { GrpcInstrumentation } = require('@opentelemetry/instrumentation-grpc') as typeof import('@opentelemetry/instrumentation-grpc');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || `accord-${service}`,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      // Probes and scrapes are not worth a trace each.
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)(\?|$)/.test(req.url ?? '') }),
      new ExpressInstrumentation(),
      new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
    ],
  });
  sdk.start();
  shutdown = () => sdk.shutdown();
  return { stop: () => sdk.shutdown() };
}

/** Trace and span id of the active span, for log lines (empty without tracing). */
export function traceIds(): { traceId: string; spanId: string } | undefined {
  const ctx = trace.getActiveSpan()?.spanContext();
  return ctx && trace.isSpanContextValid(ctx) ? { traceId: ctx.traceId, spanId: ctx.spanId } : undefined;
}

/** The active context as W3C headers (`traceparent`, `tracestate`); empty without tracing. */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const out: Record<string, string> = {};
  propagation.inject(ctx, out);
  return out;
}

/**
 * Runs `fn` in a new span whose parent is the context carried by `headers` (NATS message
 * headers, a stored `traceparent`), so that asynchronous hops stay in the request's trace.
 */
export async function inSpan<T>(
  name: string,
  opts: { kind?: SpanKind; parent?: Record<string, string | undefined>; attributes?: Attributes },
  fn: () => Promise<T>,
): Promise<T> {
  const parent = opts.parent ? propagation.extract(ROOT_CONTEXT, opts.parent) : context.active();
  const span = trace.getTracer(TRACER_NAME).startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), fn);
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: 2 });
    throw err;
  } finally {
    span.end();
  }
}

export { SpanKind };
