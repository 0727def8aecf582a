import type { ConsoleLinkDoc, ConsoleModels, ConsoleSessionDoc, MemberDoc } from './console-models';
import type { AccountDoc, ApplicationDoc, OAuthModels, TokenFamilyDoc } from './models';

/**
 * Persistence for the console: members, links, sessions, and the account-scoped reads and
 * updates of applications, token families and API keys. Every account-scoped query filters by
 * accountId, so a record of another account is simply not found.
 */
export class ConsoleRepository {
  constructor(
    private readonly m: OAuthModels,
    private readonly c: ConsoleModels,
  ) {}

  // Members

  findMemberByName(accountId: string, name: string): Promise<MemberDoc | null> {
    return this.c.members.findOne({ accountId, name }).lean<MemberDoc>().exec();
  }
  findMember(accountId: string, id: string): Promise<MemberDoc | null> {
    return this.c.members.findOne({ _id: id, accountId }).lean<MemberDoc>().exec();
  }
  findMembersBySubject(subject: string): Promise<MemberDoc[]> {
    return this.c.members.find({ subject }).sort({ createdAt: 1 }).lean<MemberDoc[]>().exec();
  }
  listMembers(accountId: string): Promise<MemberDoc[]> {
    return this.c.members.find({ accountId }).sort({ createdAt: 1, _id: 1 }).lean<MemberDoc[]>().exec();
  }
  async insertMember(doc: MemberDoc): Promise<void> {
    await this.c.members.create(doc);
  }
  countOwners(accountId: string): Promise<number> {
    return this.c.members.countDocuments({ accountId, role: 'owner' }).exec();
  }
  /** Sets the role; answers the member as it was before (null when not a member of the account). */
  setMemberRole(accountId: string, id: string, role: string): Promise<MemberDoc | null> {
    return this.c.members.findOneAndUpdate({ _id: id, accountId }, { $set: { role } }, { new: false }).lean<MemberDoc>().exec();
  }
  /** Deletes the member; answers it (null when not a member of the account). */
  deleteMember(accountId: string, id: string): Promise<MemberDoc | null> {
    return this.c.members.findOneAndDelete({ _id: id, accountId }).lean<MemberDoc>().exec();
  }
  async deleteMemberLinks(accountId: string, memberId: string): Promise<void> {
    await this.c.links.deleteMany({ accountId, memberId }).exec();
  }

  // Links and sessions

  async insertLink(doc: ConsoleLinkDoc): Promise<void> {
    await this.c.links.create(doc);
  }
  /** Spends a link atomically: only the first caller gets it, and only before it expires. */
  spendLink(hash: string, now: Date): Promise<ConsoleLinkDoc | null> {
    return this.c.links
      .findOneAndUpdate({ _id: hash, usedAt: null, expiresAt: { $gt: now } }, { $set: { usedAt: now } }, { new: true })
      .lean<ConsoleLinkDoc>()
      .exec();
  }
  async insertSession(doc: ConsoleSessionDoc): Promise<void> {
    await this.c.sessions.create(doc);
  }
  findSession(hash: string): Promise<ConsoleSessionDoc | null> {
    return this.c.sessions.findById(hash).lean<ConsoleSessionDoc>().exec();
  }
  async touchSession(hash: string, now: Date): Promise<void> {
    await this.c.sessions.updateOne({ _id: hash }, { $set: { lastSeenAt: now } }).exec();
  }
  async revokeSession(hash: string, now: Date): Promise<void> {
    await this.c.sessions.updateOne({ _id: hash, revokedAt: null }, { $set: { revokedAt: now } }).exec();
  }
  async revokeMemberSessions(accountId: string, memberId: string, now: Date): Promise<number> {
    const res = await this.c.sessions.updateMany({ accountId, memberId, revokedAt: null }, { $set: { revokedAt: now } }).exec();
    return res.modifiedCount;
  }

  // Account-scoped credentials

  findAccount(id: string): Promise<AccountDoc | null> {
    return this.m.accounts.findById(id).lean<AccountDoc>().exec();
  }
  async rotateApiKey(
    accountId: string,
    next: { hash: string; enc: string },
    previous: { hash: string; expiresAt: Date } | null,
    now: Date,
  ): Promise<AccountDoc | null> {
    return this.m.accounts
      .findOneAndUpdate(
        { _id: accountId },
        {
          $set: {
            apiKeyHash: next.hash,
            apiKeyEnc: next.enc,
            apiKeyRotatedAt: now,
            previousApiKeyHash: previous?.hash ?? null,
            previousApiKeyExpiresAt: previous?.expiresAt ?? null,
          },
        },
        { new: true },
      )
      .lean<AccountDoc>()
      .exec();
  }
  findApplication(accountId: string, id: string): Promise<ApplicationDoc | null> {
    return this.m.applications.findOne({ _id: id, accountId }).lean<ApplicationDoc>().exec();
  }
  async updateApplication(accountId: string, id: string, set: Partial<ApplicationDoc>): Promise<ApplicationDoc | null> {
    return this.m.applications.findOneAndUpdate({ _id: id, accountId }, { $set: set }, { new: true }).lean<ApplicationDoc>().exec();
  }
  listFamilies(accountId: string, clientId: string, limit: number): Promise<TokenFamilyDoc[]> {
    return this.m.tokenFamilies.find({ accountId, clientId }).sort({ createdAt: -1 }).limit(limit).lean<TokenFamilyDoc[]>().exec();
  }
  async revokeFamily(accountId: string, id: string, now: Date, reason: string): Promise<TokenFamilyDoc | null> {
    await this.m.tokenFamilies.updateOne({ _id: id, accountId, revokedAt: null }, { $set: { revokedAt: now, revokedReason: reason } }).exec();
    return this.m.tokenFamilies.findOne({ _id: id, accountId }).lean<TokenFamilyDoc>().exec();
  }
}
