import { createLogger, loadConfig, runMain } from '@accord/common';
import { configShape } from './config';
import { startGateway } from './service';

runMain('gateway', async () => {
  const config = loadConfig(configShape);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const gateway = await startGateway(config, logger);
  return { stop: gateway.stop, logger };
});
