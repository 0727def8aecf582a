// Tracing first: its instrumentations patch http, express and gRPC as they are loaded.
import { startTracing } from '@accord/common/dist/tracing';
const tracing = startTracing('gateway');

import { createLogger, DEFAULT_METRICS_PORTS, loadConfig, maybeStartMetrics, metricsEnv, runMain } from '@accord/common';
import { configShape } from './config';
import { startGateway } from './service';

runMain('gateway', async () => {
  const config = loadConfig({ ...configShape, ...metricsEnv(DEFAULT_METRICS_PORTS.gateway) });
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const metrics = await maybeStartMetrics(config, logger);
  const gateway = await startGateway(config, logger);
  return {
    logger,
    async stop() {
      await gateway.stop();
      await metrics?.close();
      await tracing.stop();
    },
  };
});
