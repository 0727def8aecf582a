export { startGateway } from './service';
export { configShape, type Config } from './config';
