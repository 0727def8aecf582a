import { isDuplicateKey, sleep } from '@accord/common';
import { LRUCache } from 'lru-cache';
import type { Models, SecretDoc, WebhookDoc } from './models';

/** A webhook to store: its first secret is current from its creation. */
export interface NewWebhook {
  accountId: string;
  appId: string;
  url: string;
  events: string[];
  headers: Record<string, string>;
  secret: string;
}

/** The fields an update sets (absent ones stay). */
export interface WebhookChange {
  url?: string;
  events?: string[];
  headers?: Record<string, string>;
  disabled?: boolean;
  disabledReason?: string;
}

function headerPairs(headers: Record<string, string>): WebhookDoc['headers'] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** What fan-out needs of a webhook. */
export type Subscriber = Pick<WebhookDoc, '_id' | 'accountId' | 'appId' | 'events'>;

/**
 * A cached subscriber list lives this long at most; changes made through any replica drop it
 * sooner (locally at once, elsewhere through `onChange` → NATS → `forget`). The bound only
 * matters if an invalidation message is lost.
 */
export const SUBSCRIBER_CACHE_MS = 30_000;

export class WebhookStore {
  /** Enabled webhooks per application, for fan-out: one find per application, not per event. */
  private readonly subscriberCache = new LRUCache<string, Subscriber[]>({ max: 10_000, ttl: SUBSCRIBER_CACHE_MS });
  private readonly loading = new Map<string, Promise<Subscriber[]>>();
  /** Bumped by every invalidation: a list read before it is not cached after it. */
  private epoch = 0;

  /** `onChange` is told of every change to an application's webhooks (to tell other replicas). */
  constructor(
    private readonly m: Models,
    private readonly onChange: (accountId: string, appId: string) => void = () => undefined,
  ) {}

  /** Drops the cached subscribers of one application (a change here or on another replica). */
  forget(accountId: string, appId: string): void {
    const key = cacheKey(accountId, appId);
    this.epoch++;
    this.subscriberCache.delete(key);
    this.loading.delete(key);
  }

  private changed(accountId: string, appId: string): void {
    this.forget(accountId, appId);
    this.onChange(accountId, appId);
  }

  /**
   * Stores a new webhook under the next integer id (max + 1). The unique _id makes concurrent
   * creators collide instead of sharing an id; the loser retries with the next number. (An $inc
   * counter would be simpler but is not atomic on FerretDB 1.x.)
   */
  async create(w: NewWebhook, now = new Date()): Promise<WebhookDoc> {
    const doc: Omit<WebhookDoc, '_id'> = {
      accountId: w.accountId,
      appId: w.appId,
      url: w.url,
      events: w.events,
      headers: headerPairs(w.headers),
      secrets: [{ secret: w.secret, createdAt: now, expiresAt: null }],
      disabled: false,
      disabledReason: '',
      createdAt: now,
      updatedAt: now,
    };
    for (let attempt = 0; ; attempt++) {
      const last = await this.m.Webhook.findOne({}, { _id: 1 }).sort({ _id: -1 }).lean<{ _id: number }>().exec();
      const full: WebhookDoc = { ...doc, _id: (last?._id ?? 0) + 1 };
      try {
        await this.m.Webhook.create(full);
        this.changed(full.accountId, full.appId);
        return full;
      } catch (err) {
        if (!isDuplicateKey(err) || attempt >= 50) throw err;
        await sleep(Math.random() * 5 * (attempt + 1));
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

  async update(accountId: string, appId: string, id: number, change: WebhookChange): Promise<WebhookDoc | null> {
    const set: Partial<WebhookDoc> = {};
    if (change.url !== undefined) set.url = change.url;
    if (change.events) set.events = change.events;
    if (change.headers) set.headers = headerPairs(change.headers);
    if (change.disabled !== undefined) {
      set.disabled = change.disabled;
      set.disabledReason = change.disabledReason ?? '';
    }
    const doc = await this.m.Webhook.findOneAndUpdate({ _id: id, accountId, appId }, { $set: { ...set, updatedAt: new Date() } }, { new: true })
      .lean<WebhookDoc>()
      .exec();
    if (doc) this.changed(accountId, appId);
    return doc;
  }

  /** Replaces the secrets only when they are still `expected` (optimistic concurrency). */
  replaceSecrets(id: number, expectedCurrent: string, secrets: SecretDoc[]): Promise<WebhookDoc | null> {
    return this.m.Webhook.findOneAndUpdate({ _id: id, 'secrets.0.secret': expectedCurrent }, { $set: { secrets, updatedAt: new Date() } }, { new: true })
      .lean<WebhookDoc>()
      .exec();
  }

  async delete(accountId: string, appId: string, id: number): Promise<boolean> {
    const res = await this.m.Webhook.deleteOne({ _id: id, accountId, appId });
    if (res.deletedCount === 1) this.changed(accountId, appId);
    return res.deletedCount === 1;
  }

  /**
   * Enabled webhooks of one application that subscribe to `type`, from the cache when it has
   * the application (concurrent misses share one find).
   */
  async subscribers(accountId: string, appId: string, type: string): Promise<Subscriber[]> {
    const key = cacheKey(accountId, appId);
    let list = this.subscriberCache.get(key);
    if (!list) {
      let pending = this.loading.get(key);
      if (!pending) {
        const epoch = this.epoch;
        pending = this.m.Webhook.find({ accountId, appId, disabled: false }, { _id: 1, accountId: 1, appId: 1, events: 1 })
          .lean<Subscriber[]>()
          .exec()
          .then((found) => {
            if (this.epoch === epoch) this.subscriberCache.set(key, found);
            return found;
          })
          .finally(() => {
            if (this.loading.get(key) === pending) this.loading.delete(key);
          });
        this.loading.set(key, pending);
      }
      list = await pending;
    }
    return list.filter((w) => w.events.includes(type));
  }

  /**
   * Enabled webhooks of every application of the account that subscribe to an account-wide
   * `type` (log.tree_head). Not cached: such events are rare (one per signed tree head).
   */
  accountSubscribers(accountId: string, type: string): Promise<Subscriber[]> {
    return this.m.Webhook.find({ accountId, events: type, disabled: false }, { _id: 1, accountId: 1, appId: 1, events: 1 }).lean<Subscriber[]>().exec();
  }

  async disable(webhook: Pick<WebhookDoc, '_id' | 'accountId' | 'appId'>, reason: string): Promise<void> {
    await this.m.Webhook.updateOne({ _id: webhook._id }, { $set: { disabled: true, disabledReason: reason, updatedAt: new Date() } });
    this.changed(webhook.accountId, webhook.appId);
  }
}

const cacheKey = (accountId: string, appId: string) => `${accountId}\u0000${appId}`;
