// Tracing first: its instrumentations patch http, express and gRPC as they are loaded.
import { startTracing } from '@accord/common/dist/tracing';
const tracing = startTracing('oauth');

import { createLogger, DEFAULT_METRICS_PORTS, loadConfig, metricsEnv, runMain, runObserved, warnDeprecatedSettings } from '@accord/common';
import { configShape } from './config';
import { startOAuth } from './service';

runMain('oauth', async () => {
  const config = loadConfig({ ...configShape, ...metricsEnv(DEFAULT_METRICS_PORTS.oauth) });
  const logger = createLogger('oauth', config.LOG_LEVEL, config.LOG_FORMAT);
  warnDeprecatedSettings(configShape, logger);
  return runObserved(config, logger, tracing, () => startOAuth(config, logger));
});
