import { createLogger, loadConfig, runMain } from '@accord/common';
import { configShape } from './config';
import { startDataProcessing } from './service';

runMain('dataprocessing', async () => {
  const config = loadConfig(configShape);
  const logger = createLogger('dataprocessing', config.LOG_LEVEL);
  const s = await startDataProcessing(config, logger);
  return { stop: s.stop, logger };
});
