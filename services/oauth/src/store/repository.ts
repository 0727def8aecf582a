import type { AccountDoc, ApplicationDoc, OAuthModels, RefreshTokenDoc } from './models';

/** MongoDB error code for a unique index violation. */
export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

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
  async setClientSecret(clientId: string, secretHash: string): Promise<boolean> {
    const res = await this.m.applications.updateOne({ clientId }, { $set: { secretHash } }).exec();
    return res.matchedCount === 1;
  }

  // Refresh tokens

  async insertRefreshToken(doc: RefreshTokenDoc): Promise<void> {
    await this.m.refreshTokens.create(doc);
  }
  findRefreshTokenByHash(hash: string): Promise<RefreshTokenDoc | null> {
    return this.m.refreshTokens.findOne({ hash }).lean<RefreshTokenDoc>().exec();
  }
  /**
   * Spends a refresh token atomically: only one caller can move usedAt from null, so two
   * concurrent refreshes with the same token cannot both succeed.
   */
  spendRefreshToken(id: string, now: Date): Promise<RefreshTokenDoc | null> {
    return this.m.refreshTokens
      .findOneAndUpdate({ _id: id, usedAt: null, revokedAt: null }, { $set: { usedAt: now } }, { new: true })
      .lean<RefreshTokenDoc>()
      .exec();
  }
  async revokeFamily(familyId: string, now: Date): Promise<number> {
    const res = await this.m.refreshTokens.updateMany({ familyId, revokedAt: null }, { $set: { revokedAt: now } }).exec();
    return res.modifiedCount;
  }
  async revokeRefreshTokensOfClient(clientId: string, now: Date): Promise<number> {
    const res = await this.m.refreshTokens.updateMany({ clientId, revokedAt: null }, { $set: { revokedAt: now } }).exec();
    return res.modifiedCount;
  }
  async familyIsRevoked(familyId: string): Promise<boolean> {
    return (await this.m.refreshTokens.exists({ familyId, revokedAt: { $ne: null } }).exec()) !== null;
  }
}
