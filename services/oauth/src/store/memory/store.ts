import { copyRecord } from '@accord/common';
import { LIMIT_FIELDS, type AccountLimits } from '../../domain/limits';
import type { Account, Application, ApplicationKey, ConsoleLink, ConsoleSession, Member, OAuthStore, TokenFamily } from '../../app/ports';

/**
 * The oauth store in memory: the port's behaviour without a database, for unit tests of the use
 * cases (fast, no I/O) and as the reference the contract test holds the MongoDB adapter to
 * (test/store-contract.test.ts). One process, no persistence; records go in and out as copies.
 */

const oldestFirst = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const copies = <T>(xs: Iterable<T>): T[] => [...xs].map(copyRecord);
const find = <T>(xs: Iterable<T>, test: (x: T) => boolean): T | undefined => {
  for (const x of xs) if (test(x)) return copyRecord(x);
  return undefined;
};

export function memoryOAuthStore(): OAuthStore {
  const accounts = new Map<string, Account>();
  const applications = new Map<string, Application>();
  const families = new Map<string, TokenFamily>();
  const members = new Map<string, Member>();
  const links = new Map<string, ConsoleLink>();
  const sessions = new Map<string, ConsoleSession>();
  const overrides = new Map<string, AccountLimits>();
  const usage = new Map<string, number>();

  const appOf = (key: ApplicationKey): Application | undefined => {
    if ('clientId' in key) return [...applications.values()].find((a) => a.clientId === key.clientId);
    const app = applications.get(key.id);
    return app && (!key.accountId || app.accountId === key.accountId) ? app : undefined;
  };
  const memberOf = (accountId: string, id: string) => {
    const m = members.get(id);
    return m?.accountId === accountId ? m : undefined;
  };

  return {
    accounts: {
      async insert(a) {
        if (accounts.has(a.id) || [...accounts.values()].some((x) => x.name === a.name || x.apiKeyHash === a.apiKeyHash)) return false;
        accounts.set(a.id, copyRecord(a));
        return true;
      },
      byId: async (id) => copyRecord(accounts.get(id)),
      byName: async (name) => find(accounts.values(), (a) => a.name === name),
      byApiKeyHash: async (hash) => find(accounts.values(), (a) => a.apiKeyHash === hash),
      byPreviousApiKeyHash: async (hash) => find(accounts.values(), (a) => a.previousApiKeyHash === hash),
      list: async () => copies(accounts.values()).sort(oldestFirst),
      async rotateApiKey(id, next, previous, at) {
        const a = accounts.get(id);
        if (!a) return undefined;
        Object.assign(a, {
          apiKeyHash: next.hash,
          apiKeyEnc: next.enc,
          apiKeyRotatedAt: at,
          previousApiKeyHash: previous?.hash ?? null,
          previousApiKeyExpiresAt: previous?.expiresAt ?? null,
        });
        return copyRecord(a);
      },
    },

    applications: {
      async insert(app) {
        if (applications.has(app.id) || [...applications.values()].some((x) => x.clientId === app.clientId || x.secretHash === app.secretHash))
          throw Object.assign(new Error(`E11000 duplicate key: application ${app.id}`), { code: 11000 });
        applications.set(app.id, copyRecord(app));
      },
      get: async (key) => copyRecord(appOf(key)),
      ofAccount: async (accountId) => copies([...applications.values()].filter((a) => a.accountId === accountId)).sort(oldestFirst),
      async update(key, change) {
        const app = appOf(key);
        if (!app) return undefined;
        Object.assign(app, copyRecord(change));
        return copyRecord(app);
      },
      anyAllowsOrigin: async (origin) => [...applications.values()].some((a) => a.allowedOrigins.includes(origin)),
    },

    families: {
      async insertMany(list) {
        const failed = new Map<number, unknown>();
        list.forEach((f, i) => {
          if (families.has(f.id)) failed.set(i, Object.assign(new Error(`E11000 duplicate key: family ${f.id}`), { code: 11000 }));
          else families.set(f.id, copyRecord(f));
        });
        return failed;
      },
      get: async (id) => copyRecord(families.get(id)),
      ofClient: async (accountId, clientId, limit) =>
        copies([...families.values()].filter((f) => f.accountId === accountId && f.clientId === clientId))
          .sort((a, b) => -oldestFirst(a, b))
          .slice(0, limit),
      async spend(q) {
        const f = families.get(q.familyId);
        if (!f || f.gen !== q.gen || f.clientId !== q.clientId || f.revokedAt || f.expiresAt <= q.now) return undefined;
        if (!q.scopes.every((s) => f.scopes.includes(s))) return undefined;
        const before = copyRecord(f);
        f.gen++;
        return before;
      },
      async revoke(id, at, reason, accountId) {
        const f = families.get(id);
        if (!f || (accountId && f.accountId !== accountId)) return undefined;
        if (!f.revokedAt) Object.assign(f, { revokedAt: at, revokedReason: reason });
        return copyRecord(f);
      },
      async revokeOfClient(clientId, at, reason) {
        let n = 0;
        for (const f of families.values()) {
          if (f.clientId !== clientId || f.revokedAt) continue;
          Object.assign(f, { revokedAt: at, revokedReason: reason });
          n++;
        }
        return n;
      },
    },

    members: {
      async insert(m) {
        if (members.has(m.id) || [...members.values()].some((x) => x.accountId === m.accountId && x.name === m.name)) return false;
        members.set(m.id, copyRecord(m));
        return true;
      },
      get: async (accountId, id) => copyRecord(memberOf(accountId, id)),
      byName: async (accountId, name) => find(members.values(), (m) => m.accountId === accountId && m.name === name),
      bySubject: async (subject) => copies([...members.values()].filter((m) => m.subject === subject)).sort(oldestFirst),
      ofAccount: async (accountId) => copies([...members.values()].filter((m) => m.accountId === accountId)).sort(oldestFirst),
      countOwners: async (accountId) => [...members.values()].filter((m) => m.accountId === accountId && m.role === 'owner').length,
      async setRole(accountId, id, role) {
        const m = memberOf(accountId, id);
        if (!m) return undefined;
        const before = copyRecord(m);
        m.role = role;
        return before;
      },
      async delete(accountId, id) {
        const m = memberOf(accountId, id);
        if (m) members.delete(id);
        return m;
      },
    },

    links: {
      insert: async (link) => void links.set(link.hash, copyRecord(link)),
      async spend(hash, now) {
        const link = links.get(hash);
        if (!link || link.usedAt || link.expiresAt <= now) return undefined;
        link.usedAt = now;
        return copyRecord(link);
      },
      async deleteOfMember(accountId, memberId) {
        for (const [hash, l] of links) if (l.accountId === accountId && l.memberId === memberId) links.delete(hash);
      },
    },

    sessions: {
      insert: async (s) => void sessions.set(s.hash, copyRecord(s)),
      get: async (hash) => copyRecord(sessions.get(hash)),
      async touch(hash, at) {
        const s = sessions.get(hash);
        if (s) s.lastSeenAt = at;
      },
      async revoke(hash, at) {
        const s = sessions.get(hash);
        if (s && !s.revokedAt) s.revokedAt = at;
      },
      async revokeOfMember(accountId, memberId, at) {
        let n = 0;
        for (const s of sessions.values()) {
          if (s.accountId !== accountId || s.memberId !== memberId || s.revokedAt) continue;
          s.revokedAt = at;
          n++;
        }
        return n;
      },
    },

    limits: {
      async overrides(accountId) {
        const o = overrides.get(accountId) ?? {};
        const out: AccountLimits = {};
        for (const f of LIMIT_FIELDS) if (typeof o[f] === 'number') out[f] = o[f];
        return out;
      },
      setOverrides: async (accountId, limits) => void overrides.set(accountId, { ...overrides.get(accountId), ...limits }),
      clearOverrides: async (accountId) => void overrides.delete(accountId),
      counted: async (key) => usage.get(key) ?? 0,
      async admit(key, count, max) {
        const total = (usage.get(key) ?? 0) + count;
        if (total > max) return undefined;
        usage.set(key, total);
        return total;
      },
      async giveBack(key, count) {
        const n = usage.get(key);
        if (n !== undefined && n >= count) usage.set(key, n - count);
      },
    },
  };
}
