/**
 * The whole of a service's main.ts: `runService('consent', async () => ({ configShape, start }))`.
 *
 * Tracing starts first, before the service's modules (and this package's index) load http,
 * express and gRPC, so that its instrumentations can patch them; then the configuration is read,
 * every renamed setting still in use is warned of, and the service runs beside its metrics
 * endpoint until a signal stops it (runMain). One composition for the five services, so none can
 * forget a step.
 */
import type { z } from 'zod';
import type { Logger, LogFormat } from './logger';
import type { DEFAULT_METRICS_PORTS } from './metrics';
import { startTracing } from './tracing';

export type ServiceName = keyof typeof DEFAULT_METRICS_PORTS;

/** What a service's main hands over: its settings and how it starts with them. */
export interface ServiceModule<S extends z.ZodRawShape> {
  configShape: S;
  start(config: z.infer<z.ZodObject<S>>, logger: Logger): Promise<{ stop(): Promise<void> }>;
}

export function runService<S extends z.ZodRawShape>(name: ServiceName, load: () => Promise<ServiceModule<S>>): void {
  const tracing = startTracing(name);
  void import('./index').then((common) => common.runMain(name, () => startService(name, load, tracing)));
}

/** Reads the configuration, warns of renamed settings, starts the service and its metrics endpoint. */
export async function startService<S extends z.ZodRawShape>(
  name: ServiceName,
  load: () => Promise<ServiceModule<S>>,
  tracing: { stop(): Promise<void> },
  env: NodeJS.ProcessEnv = process.env,
  createLogger?: (service: string, level?: string, format?: LogFormat) => Logger,
): Promise<{ logger: Logger; stop(): Promise<void> }> {
  const common = await import('./index');
  const { configShape, start } = await load();
  const config = common.loadConfig({ ...configShape, ...common.metricsEnv(common.DEFAULT_METRICS_PORTS[name]) }, env) as z.infer<z.ZodObject<S>> &
    z.infer<z.ZodObject<ReturnType<typeof common.metricsEnv>>> & { LOG_LEVEL?: string; LOG_FORMAT?: LogFormat };
  const { LOG_LEVEL, LOG_FORMAT } = config;
  const logger = (createLogger ?? common.createLogger)(name, LOG_LEVEL, LOG_FORMAT);
  common.warnDeprecatedSettings(configShape, logger, env);
  return common.runObserved(config, logger, tracing, () => start(config, logger));
}
