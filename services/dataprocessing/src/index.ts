export { startDataProcessing } from './service';
export { configShape, type Config } from './config';
// who may call each RPC (the authorization matrix test reads them)
export { dataprocessingAccess } from './grpc/access';
