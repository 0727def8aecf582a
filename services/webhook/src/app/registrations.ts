import { sleep } from '@accord/common';
import { LRUCache } from 'lru-cache';
import type { RegistrationStore, Secret, Subscriber, Webhook, WebhookChange } from './ports';

/** A webhook to store: its first secret is current from its creation. */
export interface NewWebhook {
  accountId: string;
  appId: string;
  url: string;
  events: string[];
  headers: Record<string, string>;
  secret: string;
}

/**
 * A cached subscriber list lives this long at most; changes made through any replica drop it
 * sooner (locally at once, elsewhere through `onChange` → NATS → `forget`). The bound only
 * matters if an invalidation message is lost.
 */
export const SUBSCRIBER_CACHE_MS = 30_000;

/**
 * The registrations as the use cases and the delivery workers see them: the store, with the
 * subscriber lists of fan-out cached per application, every change dropping its application's
 * list here and telling the other replicas (`onChange`), and the id of a new webhook.
 */
export class Registrations {
  /** Enabled webhooks per application, for fan-out: one find per application, not per event. */
  private readonly subscriberCache = new LRUCache<string, Subscriber[]>({ max: 10_000, ttl: SUBSCRIBER_CACHE_MS });
  private readonly loading = new Map<string, Promise<Subscriber[]>>();
  /** Bumped by every invalidation: a list read before it is not cached after it. */
  private epoch = 0;

  constructor(
    private readonly store: RegistrationStore,
    /** Told of every change to an application's webhooks (to tell other replicas). */
    private readonly onChange: (accountId: string, appId: string) => void = () => undefined,
    private readonly now: () => Date = () => new Date(),
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
   * Stores a new webhook under the next integer id (the highest + 1): concurrent creators collide
   * on the id, and the loser takes the next one. Ids stay small and dense, without a counter.
   */
  async create(w: NewWebhook): Promise<Webhook> {
    const now = this.now();
    for (let attempt = 0; ; attempt++) {
      const webhook: Webhook = {
        id: (await this.store.lastId()) + 1,
        accountId: w.accountId,
        appId: w.appId,
        url: w.url,
        events: w.events,
        headers: w.headers,
        secrets: [{ secret: w.secret, createdAt: now, expiresAt: null }],
        disabled: false,
        disabledReason: '',
        createdAt: now,
        updatedAt: now,
      };
      if (await this.store.insert(webhook)) {
        this.changed(w.accountId, w.appId);
        return webhook;
      }
      if (attempt >= 50) throw new Error('no free webhook id after 50 attempts');
      await sleep(Math.random() * 5 * (attempt + 1));
    }
  }

  list(accountId: string, appId: string): Promise<Webhook[]> {
    return this.store.list(accountId, appId);
  }

  /** A webhook of the application, or (no owner) any. */
  get(id: number, owner?: { accountId: string; appId: string }): Promise<Webhook | undefined> {
    return this.store.get(id, owner);
  }

  async update(accountId: string, appId: string, id: number, change: WebhookChange): Promise<Webhook | undefined> {
    const webhook = await this.store.update(accountId, appId, id, change, this.now());
    if (webhook) this.changed(accountId, appId);
    return webhook;
  }

  /** Replaces the secrets only while the current one is still `expectedCurrent`. */
  replaceSecrets(id: number, expectedCurrent: string, secrets: Secret[]): Promise<Webhook | undefined> {
    return this.store.replaceSecrets(id, expectedCurrent, secrets, this.now());
  }

  async delete(accountId: string, appId: string, id: number): Promise<boolean> {
    const deleted = await this.store.delete(accountId, appId, id);
    if (deleted) this.changed(accountId, appId);
    return deleted;
  }

  async disable(webhook: Pick<Webhook, 'id' | 'accountId' | 'appId'>, reason: string): Promise<void> {
    await this.store.disable(webhook.id, reason, this.now());
    this.changed(webhook.accountId, webhook.appId);
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
        pending = this.store
          .enabledOf(accountId, appId)
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
    return this.store.enabledFor(accountId, type);
  }
}

const cacheKey = (accountId: string, appId: string) => `${accountId}\u0000${appId}`;
