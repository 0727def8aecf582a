import { LogTree } from './app/log-tree';
import type { LogModels } from './store/mongo/log-models';
import { mongoLogTreeStore } from './store/mongo/log-tree';

export { startConsent } from './service';
export { configShape, type Config } from './config';
// who may call each RPC (the authorization matrix test reads them)
export { activityAccess, consentAccess, importAccess } from './grpc/access';
// the consent log's store and rules, for the benchmark and for tools that inspect a log
export { defineLogModels, type LogModels } from './store/mongo/log-models';
export { eventLeafHash, signTreeHead } from './domain/log';

/** An account's consent log over its MongoDB collections (append, heads, proofs; `reads` counts the reads). */
export class LogRepository extends LogTree {
  constructor(models: LogModels) {
    super(mongoLogTreeStore(models));
  }
}
