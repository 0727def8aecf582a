export { startOAuth } from './service';
export { configShape, type Config } from './config';
export { runAdmin, type AdminIO } from './cli/admin';
