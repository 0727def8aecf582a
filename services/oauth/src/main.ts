import { createLogger, loadConfig, runMain } from '@accord/common';
import { configShape } from './config';
import { startOAuth } from './service';

runMain('oauth', async () => {
  const config = loadConfig(configShape);
  const logger = createLogger('oauth', config.LOG_LEVEL);
  const s = await startOAuth(config, logger);
  return { stop: s.stop, logger };
});
