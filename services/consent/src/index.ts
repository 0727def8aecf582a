export { startConsent } from './service';
export { configShape, type Config } from './config';
