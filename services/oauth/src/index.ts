export { startOAuth } from './service';
export { configShape, type Config } from './config';
// who may call each RPC (the authorization matrix test reads them)
export { consoleAccess, limitsAccess, oauthAccess } from './grpc/access';
export { runAdmin, type AdminIO } from './cli/admin';
