export { startOAuth } from './service';
export { configShape, type Config } from './config';
