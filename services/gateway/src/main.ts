// Tracing first: its instrumentations patch http, express and gRPC as they are loaded.
import { startTracing } from '@accord/common/dist/tracing';
const tracing = startTracing('gateway');

import { createLogger, DEFAULT_METRICS_PORTS, loadConfig, metricsEnv, runMain, runObserved, warnDeprecatedSettings } from '@accord/common';
import { configShape } from './config';
import { startGateway } from './service';

runMain('gateway', async () => {
  const config = loadConfig({ ...configShape, ...metricsEnv(DEFAULT_METRICS_PORTS.gateway) });
  const logger = createLogger('gateway', config.LOG_LEVEL, config.LOG_FORMAT);
  warnDeprecatedSettings(configShape, logger);
  return runObserved(config, logger, tracing, () => startGateway(config, logger));
});
