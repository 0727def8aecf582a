import type { Models, SecretDoc, WebhookDoc } from './models';

const DUPLICATE_KEY = 11000;

export class WebhookStore {
  constructor(private readonly m: Models) {}

  /** Next webhook id from a per-installation counter document (atomic $inc; safe across replicas). */
  async nextId(): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.m.Counter.findOneAndUpdate({ _id: 'webhook' }, { $inc: { seq: 1 } }, { upsert: true, new: true }).lean();
        return doc!.seq;
      } catch (err) {
        // Two first-ever upserts can race on the unique _id: the loser retries and increments.
        if ((err as { code?: number }).code !== DUPLICATE_KEY || attempt >= 3) throw err;
      }
    }
  }

  async create(doc: WebhookDoc): Promise<WebhookDoc> {
    await this.m.Webhook.create(doc);
    return doc;
  }

  list(accountId: string, appId: string): Promise<WebhookDoc[]> {
    return this.m.Webhook.find({ accountId, appId }).sort({ _id: 1 }).lean<WebhookDoc[]>().exec();
  }

  get(accountId: string, appId: string, id: number): Promise<WebhookDoc | null> {
    return this.m.Webhook.findOne({ _id: id, accountId, appId }).lean<WebhookDoc>().exec();
  }

  byId(id: number): Promise<WebhookDoc | null> {
    return this.m.Webhook.findById(id).lean<WebhookDoc>().exec();
  }

  update(accountId: string, appId: string, id: number, set: Partial<WebhookDoc>): Promise<WebhookDoc | null> {
    return this.m.Webhook.findOneAndUpdate({ _id: id, accountId, appId }, { $set: { ...set, updatedAt: new Date() } }, { new: true })
      .lean<WebhookDoc>()
      .exec();
  }

  /** Replaces the secrets only when they are still `expected` (optimistic concurrency). */
  replaceSecrets(id: number, expectedCurrent: string, secrets: SecretDoc[]): Promise<WebhookDoc | null> {
    return this.m.Webhook.findOneAndUpdate({ _id: id, 'secrets.0.secret': expectedCurrent }, { $set: { secrets, updatedAt: new Date() } }, { new: true })
      .lean<WebhookDoc>()
      .exec();
  }

  async delete(accountId: string, appId: string, id: number): Promise<boolean> {
    const res = await this.m.Webhook.deleteOne({ _id: id, accountId, appId });
    return res.deletedCount === 1;
  }

  /** Enabled webhooks of one application that subscribe to `type`. */
  subscribers(accountId: string, appId: string, type: string): Promise<WebhookDoc[]> {
    return this.m.Webhook.find({ accountId, appId, events: type, disabled: false }).lean<WebhookDoc[]>().exec();
  }

  async disable(id: number, reason: string): Promise<void> {
    await this.m.Webhook.updateOne({ _id: id }, { $set: { disabled: true, disabledReason: reason, updatedAt: new Date() } });
  }
}
