export { startConsent } from './service';
export { configShape, type Config } from './config';
// the consent log's store and rules, for the benchmark and for tools that inspect a log
export { defineLogModels, type LogModels } from './store/log-models';
export { LogRepository } from './store/log-repository';
export { eventLeafHash, signTreeHead } from './domain/log';
