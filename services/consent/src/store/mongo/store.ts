import type { Connection, Model } from 'mongoose';
import type { ConsentStore } from '../../app/ports';
import { mongoCurrentStateStore } from './current';
import { mongoErasureStore } from './erasure';
import { mongoEventStore } from './events';
import { mongoExpiryStore } from './expiry';
import { defineLinkModel, mongoLinkStore, type LinkDoc } from './links';
import { defineLogModels, type LogModels } from './log-models';
import { mongoLogQueueStore } from './log-queue';
import { mongoLogTreeStore } from './log-tree';
import { defineModels, type Models } from './models';
import { mongoOutboxStore } from './outbox';
import { mongoRenewalStore } from './renewals';
import { mongoStatisticsStore } from './statistics';
import { defineImportModel, mongoImportStore, type ImportDoc } from './imports';

/**
 * The consent store on MongoDB (any MongoDB-wire server: MongoDB ≥ 6, mongo-java-server in
 * tests), through mongoose models. Works without transactions and with any number of replicas:
 * every write is atomic per document (see ConsentStore).
 */
export function mongoConsentStore(m: Models, log: LogModels, imports: Model<ImportDoc>, links: Model<LinkDoc>): ConsentStore {
  return {
    events: mongoEventStore(m),
    current: mongoCurrentStateStore(m),
    statistics: mongoStatisticsStore(m),
    outbox: mongoOutboxStore(m),
    expiry: mongoExpiryStore(m),
    renewals: mongoRenewalStore(m),
    logQueue: mongoLogQueueStore(m),
    log: mongoLogTreeStore(log),
    erasure: mongoErasureStore(m),
    imports: mongoImportStore(m, imports),
    links: mongoLinkStore(links),
  };
}

/** The consent models on a connection, and the store over them (indexes are created by syncIndexes). */
export function consentStoreOn(conn: Connection): { store: ConsentStore; models: Models; logModels: LogModels } {
  const models = defineModels(conn);
  const logModels = defineLogModels(conn);
  return { store: mongoConsentStore(models, logModels, defineImportModel(conn), defineLinkModel(conn)), models, logModels };
}
