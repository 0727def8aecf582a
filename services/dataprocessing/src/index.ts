export { startDataProcessing } from './service';
export { configShape, type Config } from './config';
