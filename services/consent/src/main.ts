import { createLogger, loadConfig, runMain } from '@accord/common';
import { configShape } from './config';
import { startConsent } from './service';

runMain('consent', async () => {
  const config = loadConfig(configShape);
  const logger = createLogger('consent', config.LOG_LEVEL);
  const s = await startConsent(config, logger);
  return { stop: s.stop, logger };
});
