import { isDuplicateKey } from '@accord/common';
import type { RegistrationStore, Subscriber, Webhook, WebhookChange } from '../../app/ports';
import type { Models, WebhookDoc } from './models';

const pairs = (headers: Record<string, string>): WebhookDoc['headers'] => Object.entries(headers).map(([name, value]) => ({ name, value }));

function toWebhook(d: WebhookDoc | null): Webhook | undefined {
  if (!d) return undefined;
  const { _id, headers, ...rest } = d;
  return { id: _id, ...rest, headers: Object.fromEntries(headers.map((h) => [h.name, h.value])) };
}

const toSubscriber = (d: Pick<WebhookDoc, '_id' | 'accountId' | 'appId' | 'events'>): Subscriber => ({
  id: d._id,
  accountId: d.accountId,
  appId: d.appId,
  events: d.events,
});
const SUBSCRIBER_FIELDS = { _id: 1, accountId: 1, appId: 1, events: 1 } as const;

function toSet(change: WebhookChange, at: Date): Partial<WebhookDoc> {
  const { headers, ...rest } = change;
  return { ...rest, ...(headers ? { headers: pairs(headers) } : {}), updatedAt: at };
}

/** Webhook registrations on MongoDB. */
export function mongoRegistrationStore(m: Models): RegistrationStore {
  return {
    lastId: async () => (await m.Webhook.findOne({}, { _id: 1 }).sort({ _id: -1 }).lean().exec())?._id ?? 0,
    async insert({ id, headers, ...w }) {
      try {
        await m.Webhook.create({ _id: id, ...w, headers: pairs(headers) });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    list: async (accountId, appId) => (await m.Webhook.find({ accountId, appId }).sort({ _id: 1 }).lean().exec()).map((d) => toWebhook(d)!),
    get: async (id, owner) =>
      toWebhook(
        await m.Webhook.findOne({ _id: id, ...owner })
          .lean()
          .exec(),
      ),
    update: async (accountId, appId, id, change, at) =>
      toWebhook(
        await m.Webhook.findOneAndUpdate({ _id: id, accountId, appId }, { $set: toSet(change, at) }, { new: true })
          .lean()
          .exec(),
      ),
    replaceSecrets: async (id, expectedCurrent, secrets, at) =>
      toWebhook(
        await m.Webhook.findOneAndUpdate({ _id: id, 'secrets.0.secret': expectedCurrent }, { $set: { secrets, updatedAt: at } }, { new: true })
          .lean()
          .exec(),
      ),
    delete: async (accountId, appId, id) => (await m.Webhook.deleteOne({ _id: id, accountId, appId }).exec()).deletedCount === 1,
    enabledOf: async (accountId, appId) => (await m.Webhook.find({ accountId, appId, disabled: false }, SUBSCRIBER_FIELDS).lean().exec()).map(toSubscriber),
    enabledFor: async (accountId, type) =>
      (await m.Webhook.find({ accountId, events: type, disabled: false }, SUBSCRIBER_FIELDS).lean().exec()).map(toSubscriber),
    disable: async (id, reason, at) =>
      void (await m.Webhook.updateOne({ _id: id }, { $set: { disabled: true, disabledReason: reason, updatedAt: at } }).exec()),
  };
}
