import { createLogger, loadConfig, runMain } from '@accord/common';
import { configShape } from './config';
import { startWebhook } from './service';

runMain('webhook', async () => {
  const config = loadConfig(configShape);
  const logger = createLogger('webhook', config.LOG_LEVEL);
  const s = await startWebhook(config, logger);
  return { stop: s.stop, logger };
});
