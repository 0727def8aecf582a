import type { Connection } from 'mongoose';
import type { WebhookStore } from '../../app/ports';
import { mongoDeliveryStore } from './deliveries';
import { defineModels, type Models } from './models';
import { mongoRegistrationStore } from './webhooks';

/**
 * The webhook store on MongoDB (MongoDB ≥ 6; mongo-java-server in tests), through mongoose models:
 * no transactions, exact with any number of replicas (every write is atomic per document).
 */
export function mongoWebhookStore(m: Models): WebhookStore {
  return { webhooks: mongoRegistrationStore(m), deliveries: mongoDeliveryStore(m) };
}

/** The webhook models on a connection, and the store over them (indexes are created by syncIndexes). */
export function webhookStoreOn(conn: Connection): { store: WebhookStore; models: Models } {
  const models = defineModels(conn);
  return { store: mongoWebhookStore(models), models };
}
