import type { Models, SecretDoc, WebhookDoc } from './models';

const DUPLICATE_KEY = 11000;

export class WebhookStore {
  constructor(private readonly m: Models) {}

  /**
   * Stores a new webhook under the next integer id (max + 1). The unique _id makes concurrent
   * creators collide instead of sharing an id; the loser retries with the next number. (An $inc
   * counter would be simpler but is not atomic on FerretDB 1.x.)
   */
  async create(doc: Omit<WebhookDoc, '_id'>): Promise<WebhookDoc> {
    for (let attempt = 0; ; attempt++) {
      const last = await this.m.Webhook.findOne({}, { _id: 1 }).sort({ _id: -1 }).lean<{ _id: number }>().exec();
      const full: WebhookDoc = { ...doc, _id: (last?._id ?? 0) + 1 };
      try {
        await this.m.Webhook.create(full);
        return full;
      } catch (err) {
        if ((err as { code?: number }).code !== DUPLICATE_KEY || attempt >= 50) throw err;
        await new Promise((r) => setTimeout(r, Math.random() * 5 * (attempt + 1)));
      }
    }
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
