import { copyRecord } from '@accord/common';
import { contracts } from '@accord/proto';
import type { Delivery, Subscriber, Webhook, WebhookStore } from '../../app/ports';

const KEPT = contracts.webhooks.LIMITS.attemptsKept;

const subscriber = (w: Webhook): Subscriber => ({ id: w.id, accountId: w.accountId, appId: w.appId, events: [...w.events] });
const newestFirst = (a: Delivery, b: Delivery) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The webhook store in memory: the port's behaviour without a database, for unit tests of the use
 * cases and the delivery workers (fast, no I/O) and as the reference the contract test holds the
 * MongoDB adapter to (test/store-contract.test.ts). One process, no persistence; records go in and
 * out as copies.
 */
export function memoryWebhookStore(): WebhookStore {
  const webhooks = new Map<number, Webhook>();
  const deliveries = new Map<string, Delivery & { lease: string | null }>();
  const queue = new Map<string, { webhookId: number; dueAt: Date; lease: string | null }>();
  const owned = (w: Webhook | undefined, owner?: { accountId: string; appId: string }) =>
    w && (!owner || (w.accountId === owner.accountId && w.appId === owner.appId)) ? w : undefined;
  const out = (d: (Delivery & { lease: string | null }) | undefined): Delivery | undefined => {
    if (!d) return undefined;
    const { lease: _lease, ...delivery } = copyRecord(d);
    return delivery;
  };

  return {
    webhooks: {
      lastId: async () => Math.max(0, ...webhooks.keys()),
      async insert(w) {
        if (webhooks.has(w.id)) return false;
        webhooks.set(w.id, copyRecord(w));
        return true;
      },
      list: async (accountId, appId) =>
        [...webhooks.values()]
          .filter((w) => w.accountId === accountId && w.appId === appId)
          .sort((a, b) => a.id - b.id)
          .map(copyRecord),
      get: async (id, owner) => copyRecord(owned(webhooks.get(id), owner)),
      async update(accountId, appId, id, change, at) {
        const w = owned(webhooks.get(id), { accountId, appId });
        if (!w) return undefined;
        Object.assign(w, copyRecord(change), { updatedAt: at });
        return copyRecord(w);
      },
      async replaceSecrets(id, expectedCurrent, secrets, at) {
        const w = webhooks.get(id);
        if (!w || w.secrets[0]?.secret !== expectedCurrent) return undefined;
        Object.assign(w, { secrets: copyRecord(secrets), updatedAt: at });
        return copyRecord(w);
      },
      delete: async (accountId, appId, id) => !!owned(webhooks.get(id), { accountId, appId }) && webhooks.delete(id),
      enabledOf: async (accountId, appId) =>
        [...webhooks.values()].filter((w) => w.accountId === accountId && w.appId === appId && !w.disabled).map(subscriber),
      enabledFor: async (accountId, type) =>
        [...webhooks.values()].filter((w) => w.accountId === accountId && w.events.includes(type) && !w.disabled).map(subscriber),
      async disable(id, reason, at) {
        const w = webhooks.get(id);
        if (w) Object.assign(w, { disabled: true, disabledReason: reason, updatedAt: at });
      },
    },

    deliveries: {
      async enqueue(items, now) {
        const queued: string[] = [];
        for (const item of items) {
          const existing = deliveries.get(item.id);
          if (existing && existing.status !== 'pending') continue;
          if (!existing) {
            deliveries.set(item.id, {
              ...copyRecord(item),
              status: 'pending',
              failedAttempts: 0,
              attempts: [],
              nextAttemptAt: now,
              createdAt: now,
              updatedAt: now,
              lease: null,
            });
          }
          if (!queue.has(item.id)) queue.set(item.id, { webhookId: item.webhookId, dueAt: now, lease: null });
          queued.push(item.id);
        }
        return queued;
      },
      get: async (webhookId, id) => {
        const d = deliveries.get(id);
        return d?.webhookId === webhookId ? out(d) : undefined;
      },
      soonest: async (limit) =>
        [...queue.entries()]
          .sort((a, b) => a[1].dueAt.getTime() - b[1].dueAt.getTime())
          .slice(0, limit)
          .map(([id, q]) => ({ id, dueAt: new Date(q.dueAt) })),
      async claim(id, lease, now, until) {
        const entry = queue.get(id);
        if (!entry || entry.dueAt > now) return undefined;
        Object.assign(entry, { dueAt: until, lease });
        const d = deliveries.get(id);
        if (!d) {
          queue.delete(id);
          return undefined;
        }
        d.lease = lease;
        return out(d);
      },
      async complete(id, lease, outcome, at) {
        const d = deliveries.get(id);
        if (!d) return false;
        d.attempts = [...d.attempts, copyRecord(outcome.attempt)].slice(-KEPT);
        if (d.lease !== lease) return false;
        Object.assign(d, { status: outcome.status, failedAttempts: outcome.failedAttempts, nextAttemptAt: outcome.nextAttemptAt, lease: null, updatedAt: at });
        const entry = queue.get(id);
        if (!entry || entry.lease !== lease) return false;
        if (outcome.status === 'pending' && outcome.nextAttemptAt) Object.assign(entry, { dueAt: outcome.nextAttemptAt, lease: null });
        else queue.delete(id);
        return true;
      },
      async redeliver(webhookId, id, now) {
        const d = deliveries.get(id);
        if (!d || d.webhookId !== webhookId) return undefined;
        Object.assign(d, { status: 'pending', failedAttempts: 0, nextAttemptAt: now, lease: null, updatedAt: now });
        queue.set(id, { webhookId, dueAt: now, lease: null });
        return out(d);
      },
      list: async (webhookId, limit, cursor) =>
        [...deliveries.values()]
          .filter((d) => d.webhookId === webhookId)
          .sort(newestFirst)
          .filter((d) => !cursor || newestFirst(d, { ...d, createdAt: cursor.createdAt, id: cursor.id }) > 0)
          .slice(0, limit)
          .map((d) => out(d)!),
      async deleteOfWebhook(webhookId) {
        for (const [id, q] of queue) if (q.webhookId === webhookId) queue.delete(id);
        for (const [id, d] of deliveries) if (d.webhookId === webhookId) deliveries.delete(id);
      },
      queued: async () => queue.size,
    },
  };
}
