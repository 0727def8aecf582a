import { bulkWriteFailures, GroupCommit } from '@accord/common';
import type { AccountDoc, ApplicationDoc, OAuthModels, TokenFamilyDoc } from './models';

/**
 * Persistence of accounts, applications and refresh tokens. Plain finds on unique indexes,
 * inserts and single-document atomic updates only (MongoDB and FerretDB, no transactions).
 */
export class OAuthRepository {
  constructor(private readonly m: OAuthModels) {}

  // Accounts

  async insertAccount(doc: AccountDoc): Promise<void> {
    await this.m.accounts.create(doc);
  }
  findAccountByName(name: string): Promise<AccountDoc | null> {
    return this.m.accounts.findOne({ name }).lean<AccountDoc>().exec();
  }
  findAccountById(id: string): Promise<AccountDoc | null> {
    return this.m.accounts.findById(id).lean<AccountDoc>().exec();
  }
  findAccountByApiKeyHash(apiKeyHash: string): Promise<AccountDoc | null> {
    return this.m.accounts.findOne({ apiKeyHash }).lean<AccountDoc>().exec();
  }
  findAccountByPreviousApiKeyHash(previousApiKeyHash: string): Promise<AccountDoc | null> {
    return this.m.accounts.findOne({ previousApiKeyHash }).lean<AccountDoc>().exec();
  }
  listAccounts(): Promise<AccountDoc[]> {
    return this.m.accounts.find().sort({ createdAt: 1, _id: 1 }).lean<AccountDoc[]>().exec();
  }
  async setApiKey(accountId: string, apiKeyHash: string, apiKeyEnc: string): Promise<boolean> {
    const res = await this.m.accounts.updateOne({ _id: accountId }, { $set: { apiKeyHash, apiKeyEnc } }).exec();
    return res.matchedCount === 1;
  }

  // Applications

  async insertApplication(doc: ApplicationDoc): Promise<void> {
    await this.m.applications.create(doc);
  }
  findApplicationByClientId(clientId: string): Promise<ApplicationDoc | null> {
    return this.m.applications.findOne({ clientId }).lean<ApplicationDoc>().exec();
  }
  listApplications(accountId: string): Promise<ApplicationDoc[]> {
    return this.m.applications.find({ accountId }).sort({ createdAt: 1, _id: 1 }).lean<ApplicationDoc[]>().exec();
  }
  findApplicationById(id: string): Promise<ApplicationDoc | null> {
    return this.m.applications.findById(id).lean<ApplicationDoc>().exec();
  }
  /** The application after the update, or null when there is none with this id. */
  setAllowedOrigins(id: string, allowedOrigins: string[]): Promise<ApplicationDoc | null> {
    return this.m.applications.findOneAndUpdate({ _id: id }, { $set: { allowedOrigins } }, { new: true }).lean<ApplicationDoc>().exec();
  }
  async anyApplicationAllowsOrigin(origin: string): Promise<boolean> {
    return (await this.m.applications.exists({ allowedOrigins: origin }).exec()) !== null;
  }
  async setClientSecret(clientId: string, secretHash: string): Promise<boolean> {
    const res = await this.m.applications.updateOne({ clientId }, { $set: { secretHash } }).exec();
    return res.matchedCount === 1;
  }

  // Refresh tokens and their families

  /**
   * Inserts a new family. Concurrent grants share one unordered `insertMany` (group commit): under
   * load N token requests cost one round trip, a lone one waits one turn of the event loop at most. The document
   * is built by the core, so mongoose's casting adds nothing.
   */
  insertFamily(doc: TokenFamilyDoc): Promise<void> {
    return this.familyInserts.add(doc);
  }
  private readonly familyInserts = new GroupCommit<TokenFamilyDoc>(async (batch) => {
    let failed: Map<number, unknown> | undefined;
    try {
      await this.m.tokenFamilies.collection.insertMany(batch.map((p) => p.item) as never[], { ordered: false });
    } catch (err) {
      failed = bulkWriteFailures(err);
      if (!failed) throw err;
    }
    batch.forEach((p, i) => (failed?.has(i) ? p.reject(failed.get(i)) : p.resolve()));
  });
  findFamily(id: string): Promise<TokenFamilyDoc | null> {
    return this.m.tokenFamilies.findById(id).lean<TokenFamilyDoc>().exec();
  }
  async revokeFamily(id: string, now: Date, reason: string): Promise<void> {
    await this.m.tokenFamilies.updateOne({ _id: id, revokedAt: null }, { $set: { revokedAt: now, revokedReason: reason } }).exec();
  }
  async revokeFamiliesOfClient(clientId: string, now: Date, reason: string): Promise<number> {
    const res = await this.m.tokenFamilies.updateMany({ clientId, revokedAt: null }, { $set: { revokedAt: now, revokedReason: reason } }).exec();
    return res.modifiedCount;
  }
  /**
   * Spends the live refresh token of a family: one conditional update, atomic on MongoDB, so of
   * concurrent refreshes with one token exactly one gets the family back (as it was before the
   * spend). Null when the family is unknown, belongs to another client, is revoked or expired,
   * lacks a requested scope, or has moved past `gen` (then the caller looks at why).
   */
  spendRefreshToken(q: { familyId: string; gen: number; clientId: string; scopes: string[]; now: Date }): Promise<TokenFamilyDoc | null> {
    return this.m.tokenFamilies
      .findOneAndUpdate(
        {
          _id: q.familyId,
          gen: q.gen,
          clientId: q.clientId,
          revokedAt: null,
          expiresAt: { $gt: q.now },
          ...(q.scopes.length ? { scopes: { $all: q.scopes } } : {}),
        },
        { $inc: { gen: 1 } },
      )
      .lean<TokenFamilyDoc>()
      .exec();
  }
}
