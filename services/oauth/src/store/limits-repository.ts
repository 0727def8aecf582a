import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKey } from '@accord/common';
import { LIMIT_FIELDS, type AccountLimits } from '../domain/limits';

/** An account's overrides of the gateway's default limits (a field absent = the default). */
export interface AccountLimitsDoc {
  /** The account id. */
  _id: string;
  requestsPerSecond?: number;
  burst?: number;
  appRequestsPerSecond?: number;
  appBurst?: number;
  maxEventsPerRequest?: number;
  maxEventsPerDay?: number;
  updatedAt: Date;
}

/** Events admitted for one account on one UTC day: `_id` is `<accountId>:<YYYY-MM-DD>`. */
export interface DailyUsageDoc {
  _id: string;
  events: number;
  expiresAt: Date;
}

const DAY_MS = 86_400_000;

/**
 * Persistence of account limits and of the daily event counts. The count is one document per
 * account and day, changed by a single conditional upsert, so every gateway replica shares it.
 */
export class LimitsStore {
  private readonly limits: Model<AccountLimitsDoc>;
  private readonly usage: Model<DailyUsageDoc>;

  constructor(conn: Connection) {
    const limitsSchema = new Schema<AccountLimitsDoc>(
      {
        _id: { type: String, required: true },
        ...Object.fromEntries(LIMIT_FIELDS.map((f) => [f, { type: Number }])),
        updatedAt: { type: Date, required: true },
      },
      { collection: 'account_limits', versionKey: false },
    );
    const usageSchema = new Schema<DailyUsageDoc>(
      { _id: { type: String, required: true }, events: { type: Number, required: true }, expiresAt: { type: Date, required: true } },
      { collection: 'account_daily_usage', versionKey: false },
    );
    this.limits = conn.model<AccountLimitsDoc>('AccountLimits', limitsSchema);
    this.usage = conn.model<DailyUsageDoc>('AccountDailyUsage', usageSchema);
  }

  get usageModel(): Model<DailyUsageDoc> {
    return this.usage;
  }

  async get(accountId: string): Promise<AccountLimits> {
    const doc = await this.limits.findById(accountId).lean<AccountLimitsDoc>().exec();
    const out: AccountLimits = {};
    for (const f of LIMIT_FIELDS) if (typeof doc?.[f] === 'number') out[f] = doc[f];
    return out;
  }

  /** Sets the given fields (others unchanged); `clear` removes every override first. */
  async set(accountId: string, limits: AccountLimits, clear: boolean): Promise<AccountLimits> {
    if (clear) await this.limits.deleteOne({ _id: accountId }).exec();
    else if (Object.keys(limits).length) {
      await this.limits.updateOne({ _id: accountId }, { $set: { ...limits, updatedAt: new Date() } }, { upsert: true }).exec();
    }
    return this.get(accountId);
  }

  /**
   * Admits `count` events for the account today when the total stays within `max`, atomically:
   * the upsert matches today's document only while `events <= max - count`; when it exists
   * but is too full the upsert's insert collides on `_id` (refused). A negative count returns
   * events (a write that failed after it was admitted).
   */
  async consume(accountId: string, count: number, max: number, now = new Date()): Promise<{ allowed: boolean; used: number; resetSeconds: number }> {
    const day = now.toISOString().slice(0, 10);
    const id = `${accountId}:${day}`;
    const dayEnd = Date.parse(`${day}T00:00:00Z`) + DAY_MS;
    const resetSeconds = Math.max(1, Math.ceil((dayEnd - now.getTime()) / 1000));
    const current = async () => (await this.usage.findById(id).lean<DailyUsageDoc>().exec())?.events ?? 0;
    if (count <= 0) {
      if (count < 0) await this.usage.updateOne({ _id: id, events: { $gte: -count } }, { $inc: { events: count } }).exec();
      return { allowed: true, used: await current(), resetSeconds };
    }
    if (count > max) return { allowed: false, used: await current(), resetSeconds };
    try {
      const doc = await this.usage
        .findOneAndUpdate(
          { _id: id, events: { $lte: max - count } },
          { $inc: { events: count }, $setOnInsert: { expiresAt: new Date(dayEnd + DAY_MS) } },
          { upsert: true, new: true },
        )
        .lean<DailyUsageDoc>()
        .exec();
      return { allowed: true, used: doc?.events ?? count, resetSeconds };
    } catch (err) {
      if (isDuplicateKey(err)) return { allowed: false, used: await current(), resetSeconds };
      throw err;
    }
  }
}
