import type { Subtree } from '@accord/proofs';
import { hashKey, LIMITS, stateKey, supersedes, type ConsentEvent } from '../../domain/consent';
import { decidedEvent, withAskedStrings, type DecidedEvent } from '../../domain/decision';
import { appCountersOf, expiredAt, GPC_DECLINE, meets, type StatisticsCounts } from '../../domain/statistics';
import { memoryLinkStore } from './links';
import type {
  ClaimedEvent,
  ConsentStore,
  ErasureRecord,
  ExportFilter,
  LogLeaf,
  LogPendingEvent,
  RenewalJob,
  StateEvent,
  TreeHeadRecord,
} from '../../app/ports';
import type { ImportedEvent, ImportJob } from '../../domain/import';

/**
 * The consent store in memory: the port's behaviour without a database, for unit tests of the use
 * cases and jobs (fast, no I/O) and as the reference the contract test holds the MongoDB adapter
 * to (test/store-contract.test.ts). One process, no persistence.
 *
 * Faults are injected per method (`faults.fail`): the next call of that method fails, after
 * doing part of its work for `events.insert` (it stores that many events first, as an ordered
 * insert cut short would).
 */
export interface MemoryConsentStore extends ConsentStore {
  faults: StoreFaults;
  /** Every call made, as `<group>.<method>` (what a use case costs in store calls). */
  calls: string[];
}

export class StoreFaults {
  private readonly planned = new Map<string, Array<{ error: unknown; after: number }>>();

  /** The next call of `method` (`<group>.<method>`, e.g. `events.insert`) fails with `error`; an insert stores `after` events first. */
  fail(method: string, opts: { error?: unknown; after?: number } = {}): void {
    const list = this.planned.get(method) ?? [];
    list.push({ error: opts.error ?? new Error(`injected fault: ${method}`), after: opts.after ?? 0 });
    this.planned.set(method, list);
  }

  /** The fault planned for this call of `method`, taken. */
  take(method: string): { error: unknown; after: number } | undefined {
    return this.planned.get(method)?.shift();
  }
}

interface EventRec {
  event: ConsentEvent;
  /** Due for the relay from then on (absent: published). */
  pub?: Date;
  claim?: string;
  /** Waiting for its log leaf. */
  logq?: boolean;
  /** The id of its request's last event, until the request is known to be stored whole. */
  part?: string;
  /** The leaf hash fixed by an erasure while it waited for its leaf. */
  logh?: Buffer;
}

interface StateRec {
  accountId: string;
  subject: string;
  issuer: string;
  target: string;
  scope: string;
  cur: ConsentEvent;
  /** The expiry queue: due then (absent: no expiry; past any time once announced). */
  xq?: Date;
  xc?: string;
}

const copy = (ev: ConsentEvent): ConsentEvent => {
  const out: ConsentEvent = { ...ev, createdAt: new Date(ev.createdAt) };
  if (ev.expiresAt) out.expiresAt = new Date(ev.expiresAt);
  if (ev.erasedAt) out.erasedAt = new Date(ev.erasedAt);
  if (ev.importedAt) out.importedAt = new Date(ev.importedAt);
  delete (out as { importKey?: string }).importKey;
  if (ev.tcf) out.tcf = structuredClone(ev.tcf);
  if (ev.gpp) out.gpp = structuredClone(ev.gpp);
  delete out.expired;
  delete out.renewalRequired;
  return out;
};
const byId = (x: { id: string }, y: { id: string }) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
const copyLeaf = (l: LogLeaf): LogLeaf => ({ ...l, leafHash: Buffer.from(l.leafHash), at: new Date(l.at) });
const NEVER = 8.64e15;

/** A claim's one update: `take` each item that is `due`; how many were taken. */
function claimEach<T>(items: Iterable<T>, due: (item: T) => boolean, take: (item: T) => void): number {
  let n = 0;
  for (const item of items)
    if (due(item)) {
      take(item);
      n++;
    }
  return n;
}

export function memoryConsentStore(): MemoryConsentStore {
  const faults = new StoreFaults();
  const calls: string[] = [];
  /** Calls a method: recorded, and failed when a fault is planned for it. */
  const call = (method: string) => {
    calls.push(method);
    const f = faults.take(method);
    if (f && method !== 'events.insert') throw f.error;
    return f;
  };

  const events = new Map<string, EventRec>();
  const tombstones = new Set<string>();
  const states = new Map<string, StateRec>();
  const counters = new Map<string, { accountId: string; appId: string; target?: string; jurisdiction?: string; n: Record<string, number> }>();
  /** Distinct-subject markers: hash of (account, application, subject) → its application. */
  const markers = new Map<string, string>();
  const jobs = new Map<string, RenewalJob>();
  const leaves = new Map<string, LogLeaf>();
  const leafOfEvent = new Map<string, string>();
  const nodes = new Map<string, Buffer>();
  const heads = new Map<string, TreeHeadRecord>();
  const leases = new Map<string, { owner: string; until: Date }>();
  const erasures = new Map<string, ErasureRecord>();
  const importJobs = new Map<string, ImportJob>();
  /** Imported events' keys (the account's, domain/import.ts importKey) → event id. */
  const importKeys = new Map<string, string>();
  /** Event id → its import key (what erasure rewrites). */
  const importKeyOf = new Map<string, string>();
  const copyJob = (j: ImportJob): ImportJob => structuredClone(j);

  /** Whether an event's request is stored whole (its last event is stored). */
  const settled = (r: EventRec) => r.part === undefined || events.has(r.part);
  const visible = (accountId: string) => (r: EventRec) => r.event.accountId === accountId && settled(r);
  const sorted = (filter: (r: EventRec) => boolean, desc = false) => {
    const out = [...events.values()].filter(filter).sort((x, y) => byId(x.event, y.event));
    return desc ? out.reverse() : out;
  };
  const matchesExport = (q: ExportFilter) => (r: EventRec) => {
    const e = r.event;
    return (
      e.accountId === q.accountId &&
      (q.appId === undefined || e.appId === q.appId) &&
      (q.target === undefined || e.target === q.target) &&
      (q.subject === undefined || e.subject === q.subject) &&
      (q.after === undefined || e.id > q.after) &&
      (q.from === undefined || e.id >= q.from) &&
      (q.before === undefined || e.id < q.before)
    );
  };
  const claimedOf = (r: EventRec): ClaimedEvent => (settled(r) ? copy(r.event) : { ...copy(r.event), unsettledUntil: r.part! });
  const bump = (id: string, init: () => { accountId: string; appId: string; target?: string; jurisdiction?: string }, field: string) => {
    let c = counters.get(id);
    if (!c) counters.set(id, (c = { ...init(), n: {} }));
    c.n[field] = (c.n[field] ?? 0) + 1;
  };
  const upsertState = (key: string, ev: ConsentEvent, xq: Date | undefined = ev.expiresAt) => {
    const s = states.get(key);
    if (s && !supersedes(ev, s.cur)) return; // a newer (or the same) event stays
    const cur = copy(ev);
    delete cur.erasedAt; // a state holds the event as written
    const rec: StateRec = { accountId: ev.accountId, subject: ev.subject, issuer: ev.issuer, target: ev.target, scope: ev.scope, cur };
    if (xq) rec.xq = new Date(xq);
    states.set(key, s ? { ...rec, accountId: s.accountId, subject: s.subject, issuer: s.issuer, target: s.target, scope: s.scope } : rec);
  };

  return {
    faults,
    calls,

    events: {
      async insert(requests, pubAt) {
        const f = call('events.insert');
        let n = 0;
        for (const req of requests) {
          const last = req.at(-1)!.id;
          for (const ev of req) {
            if (f && n >= f.after) throw f.error;
            if (events.has(ev.id) || tombstones.has(ev.id)) throw Object.assign(new Error(`E11000 duplicate key: ${ev.id}`), { code: 11000 });
            const rec: EventRec = { event: copy(ev), pub: new Date(pubAt), logq: true };
            if (ev.id !== last) rec.part = last;
            events.set(ev.id, rec);
            n++;
          }
        }
        if (f) throw f.error;
      },
      async fence(ids) {
        call('events.fence');
        const out = new Map<string, 'stored' | 'fenced'>();
        for (const id of ids) {
          if (events.has(id)) out.set(id, 'stored');
          else {
            tombstones.add(id);
            out.set(id, 'fenced');
          }
        }
        return out;
      },
      async withdraw(ids) {
        call('events.withdraw');
        for (const id of ids) events.delete(id);
      },
      async findById(accountId, id) {
        call('events.findById');
        const r = events.get(id);
        return r && visible(accountId)(r) ? copy(r.event) : undefined;
      },
      async findByToken(accountId, token, limit) {
        call('events.findByToken');
        return sorted((r) => visible(accountId)(r) && r.event.token === token, true)
          .slice(0, limit)
          .map((r) => copy(r.event));
      },
      async history(q) {
        call('events.history');
        return sorted((r) => {
          const e = r.event;
          return (
            visible(q.accountId)(r) &&
            e.subject === q.subject &&
            e.issuer === q.issuer &&
            e.target === q.target &&
            (q.scope === undefined || e.scope === q.scope) &&
            (q.source === undefined || e.source === q.source) &&
            (q.gpc === undefined || e.gpc === q.gpc) &&
            (q.jurisdiction === undefined || e.jurisdiction === q.jurisdiction) &&
            (q.before === undefined || e.id < q.before)
          );
        }, true)
          .slice(0, q.limit)
          .map((r) => copy(r.event));
      },
      async newestBefore(accountId, refs, before) {
        call('events.newestBefore');
        const wanted = new Set(refs.map((r) => stateKey(accountId, r.subject, r.issuer, r.target, r.scope)));
        const out = new Map<string, ConsentEvent>();
        for (const r of sorted((r) => visible(accountId)(r) && r.event.id < before, true)) {
          const e = r.event;
          const key = stateKey(accountId, e.subject, e.issuer, e.target, e.scope);
          if (wanted.has(key) && !out.has(key)) out.set(key, copy(e));
        }
        return out;
      },
      async exportPage(q) {
        call('events.exportPage');
        const match = matchesExport(q);
        return sorted((r) => match(r) && settled(r))
          .slice(0, q.limit)
          .map((r) => copy(r.event));
      },
      async count(q) {
        call('events.count');
        return sorted(matchesExport(q)).length;
      },
      async *actions(accountId, appId, from, to, limit) {
        call('events.actions');
        const rows = sorted((r) => visible(accountId)(r) && r.event.appId === appId && r.event.id >= from && r.event.id < to).slice(0, limit);
        for (const r of rows) yield { id: r.event.id, action: r.event.action };
      },
    },

    current: {
      async apply(evs) {
        call('current.apply');
        for (const ev of evs) upsertState(stateKey(ev.accountId, ev.subject, ev.issuer, ev.target, ev.scope), ev);
      },
      async byKeys(accountId, keys) {
        call('current.byKeys');
        const out = new Map<string, ConsentEvent>();
        for (const k of keys) {
          const s = states.get(k);
          if (s && s.accountId === accountId) out.set(k, { ...copy(s.cur), subject: s.subject, issuer: s.issuer, target: s.target, scope: s.scope });
        }
        return out;
      },
      async forDecisions(accountId, keys, opts) {
        call('current.forDecisions');
        const out = new Map<string, DecidedEvent>();
        for (const k of keys) {
          const s = states.get(k);
          if (!s || s.accountId !== accountId) continue;
          out.set(k, withAskedStrings(decidedEvent(s.cur), opts));
        }
        return out;
      },
      async ofSubject(accountId, subject, issuer, targets, limit) {
        call('current.ofSubject');
        return [...states.values()]
          .filter((s) => s.accountId === accountId && s.subject === subject && s.issuer === issuer && (!targets.length || targets.includes(s.target)))
          .slice(0, limit)
          .map((s) => ({ ...copy(s.cur), subject: s.subject, issuer: s.issuer, target: s.target, scope: s.scope }));
      },
    },

    statistics: {
      async count(evs) {
        call('statistics.count');
        for (const ev of evs) {
          const app = () => ({ accountId: ev.accountId, appId: ev.appId });
          for (const counter of appCountersOf(ev)) bump(`app:${hashKey([ev.accountId, ev.appId])}`, app, counter);
          if (ev.jurisdiction !== undefined)
            bump(`jurisdiction:${hashKey([ev.accountId, ev.appId, ev.jurisdiction])}`, () => ({ ...app(), jurisdiction: ev.jurisdiction }), 'events');
          bump(`target:${hashKey([ev.accountId, ev.appId, ev.target])}`, () => ({ ...app(), target: ev.target }), 'events');
          markers.set(hashKey([ev.accountId, ev.appId, ev.subject]), `${ev.accountId}\n${ev.appId}`);
        }
      },
      async read(accountId, appId, now) {
        call('statistics.read');
        const app = counters.get(`app:${hashKey([accountId, appId])}`)?.n ?? {};
        const targets = [...counters.values()]
          .filter((c) => c.target !== undefined && c.accountId === accountId && c.appId === appId)
          .map((c) => ({ target: c.target!, events: c.n.events ?? 0 }))
          .sort((x, y) => y.events - x.events)
          .slice(0, LIMITS.statisticsTargets);
        const groups = new Map<string, StatisticsCounts['states'][number]>();
        for (const s of states.values()) {
          if (s.accountId !== accountId || s.cur.appId !== appId) continue;
          const g = {
            target: s.target,
            action: s.cur.action,
            expired: meets(s.cur, expiredAt(now)),
            version: s.cur.targetVersion,
            ...(meets(s.cur, GPC_DECLINE) ? { gpcDecline: true } : {}),
          };
          const k = JSON.stringify(g);
          const row = groups.get(k);
          if (row) row.count++;
          else groups.set(k, { ...g, count: 1 });
        }
        const latest = sorted((r) => visible(accountId)(r) && r.event.appId === appId, true)[0];
        let distinctSubjects = 0;
        for (const owner of markers.values()) if (owner === `${accountId}\n${appId}`) distinctSubjects++;
        const out: StatisticsCounts = {
          app: {
            total: app.total ?? 0,
            accepted: app.accepted ?? 0,
            declined: app.declined ?? 0,
            noAction: app.noAction ?? 0,
            gpcDeclines: app.gpcDeclines ?? 0,
          },
          jurisdictions: [...counters.values()]
            .filter((c) => c.jurisdiction !== undefined && c.accountId === accountId && c.appId === appId)
            .map((c) => ({ jurisdiction: c.jurisdiction!, events: c.n.events ?? 0 }))
            .sort((x, y) => y.events - x.events)
            .slice(0, LIMITS.statisticsTargets),
          targets,
          distinctSubjects,
          states: [...groups.values()],
        };
        if (latest) out.latestEventAt = new Date(latest.event.createdAt);
        return out;
      },
      async eventTotal(q) {
        call('statistics.eventTotal');
        let n = 0;
        for (const c of counters.values()) {
          if (c.accountId !== q.accountId || (q.appId !== undefined && c.appId !== q.appId)) continue;
          if (c.jurisdiction !== undefined) continue;
          if (q.target !== undefined ? c.target === q.target : c.target === undefined) n += q.target !== undefined ? (c.n.events ?? 0) : (c.n.total ?? 0);
        }
        return n;
      },
    },

    outbox: {
      async claimDue(claim, now, until, limit) {
        call('outbox.claimDue');
        const n = claimEach(
          events.values(),
          (r) => !!r.pub && r.pub <= now,
          (r) => Object.assign(r, { pub: new Date(until), claim }),
        );
        return n
          ? sorted((r) => r.claim === claim && !!r.pub)
              .slice(0, limit)
              .map(claimedOf)
          : [];
      },
      async claimed(claim, limit) {
        call('outbox.claimed');
        return sorted((r) => r.claim === claim && !!r.pub)
          .slice(0, limit)
          .map(claimedOf);
      },
      async markPublished(ids) {
        call('outbox.markPublished');
        for (const id of ids) {
          const r = events.get(id);
          if (r) {
            delete r.pub;
            delete r.claim;
            delete r.part; // published: its request is stored whole
          }
        }
      },
      async defer(ids, at) {
        call('outbox.defer');
        for (const id of ids) {
          const r = events.get(id);
          if (r?.pub) r.pub = new Date(at);
        }
      },
      async pending() {
        call('outbox.pending');
        const waiting = sorted((r) => !!r.pub);
        return { count: waiting.length, oldestStoredAt: waiting[0] ? new Date(waiting[0].event.createdAt) : null };
      },
    },

    expiry: {
      async claimLapsed(claim, now, until, limit) {
        call('expiry.claimLapsed');
        const n = claimEach(
          states.values(),
          (s) => !!s.xq && s.xq <= now,
          (s) => Object.assign(s, { xq: new Date(until), xc: claim }),
        );
        return n ? lapsed(claim, limit) : [];
      },
      async lapsedOfClaim(claim, limit) {
        call('expiry.lapsedOfClaim');
        return lapsed(claim, limit);
      },
      async markAnnounced(list) {
        call('expiry.markAnnounced');
        for (const { key, eventId } of list) {
          const s = states.get(key);
          if (s && s.cur.id === eventId) {
            s.xq = new Date(NEVER); // past any time: never due again
            delete s.xc;
          }
        }
      },
    },

    renewals: {
      async job(j, now) {
        call('renewals.job');
        const id = `${j.specId}:${j.version}`;
        if (!jobs.has(id)) jobs.set(id, { id, ...j, targets: [...j.targets], createdAt: new Date(now), leaseUntil: new Date(0), announced: 0, done: false });
        return { ...jobs.get(id)! };
      },
      async claim(id, owner, now, until) {
        call('renewals.claim');
        const j = jobs.get(id);
        if (!j || j.done || j.leaseUntil > now) return null;
        Object.assign(j, { owner, leaseUntil: new Date(until) });
        return { ...j };
      },
      async advance(id, owner, lastKey, count, until) {
        call('renewals.advance');
        const j = jobs.get(id);
        if (!j || j.owner !== owner) return false;
        Object.assign(j, { lastKey, leaseUntil: new Date(until), announced: j.announced + count });
        return true;
      },
      async finish(id, owner) {
        call('renewals.finish');
        const j = jobs.get(id);
        if (!j || j.owner !== owner) return false;
        j.done = true;
        return true;
      },
      async page(accountId, targets, version, afterKey, limit) {
        call('renewals.page');
        const rows = [...states.entries()]
          .filter(
            ([k, s]) =>
              s.accountId === accountId &&
              targets.includes(s.target) &&
              s.cur.targetVersion !== undefined &&
              s.cur.targetVersion < version &&
              (afterKey === undefined || k > afterKey),
          )
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .slice(0, limit);
        const out: StateEvent[] = rows
          .filter(([, s]) => !s.cur.erasedAt)
          .map(([key, s]) => ({ key, event: { ...copy(s.cur), subject: s.subject, issuer: s.issuer, target: s.target, scope: s.scope } }));
        return { states: out, lastKey: rows.at(-1)?.[0], full: rows.length === limit };
      },
    },

    logQueue: {
      async accounts() {
        call('logQueue.accounts');
        return [...new Set([...events.values()].filter((r) => r.logq).map((r) => r.event.accountId))].sort();
      },
      async pending(accountId, limit, after) {
        call('logQueue.pending');
        const read = sorted((r) => !!r.logq && r.event.accountId === accountId && (after === undefined || r.event.id > after)).slice(0, limit);
        const out: LogPendingEvent[] = read.filter(settled).map((r) => (r.logh ? { ...copy(r.event), leafHash: Buffer.from(r.logh) } : copy(r.event)));
        return { events: out, ...(read.length ? { last: read.at(-1)!.event.id } : {}), full: read.length === limit };
      },
      async markLogged(ids, published = []) {
        call('logQueue.markLogged');
        const both = new Set(published);
        for (const id of ids) {
          const r = events.get(id);
          if (r) {
            delete r.logq;
            delete r.part; // sequenced: its request is stored whole
            if (both.has(id)) {
              delete r.pub;
              delete r.claim;
            }
          }
        }
      },
      async isPending(accountId, id) {
        call('logQueue.isPending');
        const r = events.get(id);
        return !!r?.logq && r.event.accountId === accountId;
      },
    },

    log: {
      async takeLease(accountId, owner, now, until) {
        call('log.takeLease');
        const l = leases.get(accountId);
        if (l && l.owner !== owner && l.until > now) return false;
        leases.set(accountId, { owner, until: new Date(until) });
        return true;
      },
      async releaseLease(accountId, owner) {
        call('log.releaseLease');
        if (leases.get(accountId)?.owner === owner) leases.delete(accountId);
      },
      async latestHead(accountId) {
        call('log.latestHead');
        let best: TreeHeadRecord | undefined;
        for (const h of heads.values()) if (h.accountId === accountId && (!best || h.treeSize > best.treeSize)) best = h;
        return best && { ...best };
      },
      async head(accountId, treeSize) {
        call('log.head');
        const h = heads.get(`${accountId}/${treeSize}`);
        return h && { ...h };
      },
      async leaf(accountId, eventId) {
        call('log.leaf');
        const l = leaves.get(leafOfEvent.get(eventId) ?? '');
        return l && l.accountId === accountId ? copyLeaf(l) : undefined;
      },
      async leavesFrom(accountId, from) {
        call('log.leavesFrom');
        const out: LogLeaf[] = [];
        for (let i = from; leaves.has(`${accountId}/${i}`); i++) out.push(copyLeaf(leaves.get(`${accountId}/${i}`)!));
        return out;
      },
      async withLeaves(eventIds) {
        call('log.withLeaves');
        return new Set(eventIds.filter((id) => leafOfEvent.has(id)));
      },
      async insertLeaves(list) {
        call('log.insertLeaves');
        for (const l of list) {
          const id = `${l.accountId}/${l.leafIndex}`;
          if (leaves.has(id) || leafOfEvent.has(l.eventId)) return false;
          leaves.set(id, copyLeaf(l));
          leafOfEvent.set(l.eventId, id);
        }
        return true;
      },
      async insertSubtrees(accountId, list) {
        call('log.insertSubtrees');
        for (const s of list) if (!nodes.has(`${s.level}/${s.index}/${accountId}`)) nodes.set(`${s.level}/${s.index}/${accountId}`, Buffer.from(s.hash));
      },
      async subtrees(accountId, list: Subtree[]) {
        call('log.subtrees');
        const out = new Map<string, Buffer>();
        for (const s of list) {
          const h = nodes.get(`${s.level}/${s.index}/${accountId}`);
          if (h) out.set(`${s.level}/${s.index}`, Buffer.from(h));
        }
        return out;
      },
      async insertHead(h) {
        call('log.insertHead');
        const id = `${h.accountId}/${h.treeSize}`;
        if (heads.has(id)) return false;
        heads.set(id, { ...h });
        return true;
      },
    },

    erasure: {
      async inClear(accountId, subject, issuer, limit) {
        call('erasure.inClear');
        return [...events.values()]
          .filter((r) => r.event.accountId === accountId && r.event.subject === subject && (issuer === undefined || r.event.issuer === issuer))
          .slice(0, limit)
          .map((r) => {
            const importKey = importKeyOf.get(r.event.id);
            return { ...copy(r.event), logPending: !!r.logq, ...(importKey ? { importKey } : {}) };
          });
      },
      async rewrite(list) {
        call('erasure.rewrite');
        let n = 0;
        for (const w of list) {
          const r = events.get(w.id);
          if (!r || r.event.subject !== w.subject) continue;
          r.event.subject = w.set.subject;
          if (w.set.source !== undefined) r.event.source = w.set.source;
          if (w.set.delegate !== undefined) r.event.delegate = w.set.delegate;
          r.event.erasedAt = new Date(w.set.erasedAt);
          if (w.set.leafHash) r.logh = Buffer.from(w.set.leafHash);
          const had = importKeyOf.get(w.id);
          if (w.set.importKey && had !== undefined) {
            importKeys.delete(had);
            importKeys.set(w.set.importKey, w.id);
            importKeyOf.set(w.id, w.set.importKey);
          }
          n++;
        }
        return n;
      },
      async statesOf(accountId, subject, issuer, skip, limit) {
        call('erasure.statesOf');
        return [...states.entries()]
          .filter(([k, s]) => s.accountId === accountId && s.subject === subject && (issuer === undefined || s.issuer === issuer) && !skip.includes(k))
          .slice(0, limit)
          .map(([key, s]) => ({
            key,
            event: { ...copy(s.cur), subject: s.subject, issuer: s.issuer, target: s.target, scope: s.scope },
            ...(s.xq ? { expiryDue: new Date(s.xq) } : {}),
          }));
      },
      async erased(ids) {
        call('erasure.erased');
        return new Set(ids.filter((id) => erasedEvent(id)));
      },
      async moveStates(moves) {
        call('erasure.moveStates');
        for (const m of moves) {
          upsertState(m.to, m.event, m.expiryDue ?? m.event.expiresAt);
          if (states.get(m.from)?.cur.id === m.eventId) states.delete(m.from);
        }
      },
      async hasInClear(accountId, appId, subject) {
        call('erasure.hasInClear');
        return [...events.values()].some((r) => r.event.accountId === accountId && r.event.appId === appId && r.event.subject === subject);
      },
      async moveSubjectMarkers(accountId, subject, pseudonym, appIds) {
        call('erasure.moveSubjectMarkers');
        for (const appId of appIds) {
          markers.delete(hashKey([accountId, appId, subject]));
          markers.set(hashKey([accountId, appId, pseudonym]), `${accountId}\n${appId}`);
        }
      },
      async record(rec) {
        call('erasure.record');
        erasures.set(rec.id, { ...rec, erasedAt: new Date(rec.erasedAt) });
      },
      async list(accountId, limit, before) {
        call('erasure.list');
        return [...erasures.values()]
          .filter((e) => e.accountId === accountId && (before === undefined || e.id < before))
          .sort((x, y) => (x.id < y.id ? 1 : -1))
          .slice(0, limit)
          .map((e) => ({ ...e }));
      },
    },

    imports: {
      async create(job) {
        call('imports.create');
        importJobs.set(job.id, copyJob(job));
      },
      async get(accountId, id) {
        call('imports.get');
        const j = importJobs.get(id);
        return j && j.accountId === accountId ? copyJob(j) : undefined;
      },
      async progress(accountId, id, add, at) {
        call('imports.progress');
        const j = importJobs.get(id);
        if (!j || j.accountId !== accountId || j.state !== 'running') return undefined;
        j.read += add.read;
        j.stored += add.stored;
        j.duplicates += add.duplicates;
        j.refused += add.refused;
        j.errors.push(...add.errors.map((e) => ({ ...e })));
        j.updatedAt = new Date(at);
        return copyJob(j);
      },
      async setColumns(accountId, id, columns) {
        call('imports.setColumns');
        const j = importJobs.get(id);
        if (j && j.accountId === accountId && j.state === 'running') j.columns = [...columns];
      },
      async finish(accountId, id, state, failure, at) {
        call('imports.finish');
        const j = importJobs.get(id);
        if (!j || j.accountId !== accountId) return undefined;
        if (j.state === 'running') {
          j.state = state;
          if (failure !== undefined) j.failure = failure;
          j.updatedAt = new Date(at);
        }
        return copyJob(j);
      },
      async insertEvents(list, erasedKeys) {
        call('imports.insertEvents');
        const stored: ImportedEvent[] = [];
        const duplicates: ConsentEvent[] = [];
        for (const [i, ev] of list.entries()) {
          const erased = erasedKeys?.[i];
          const had = importKeys.get(ev.importKey) ?? (erased !== undefined ? importKeys.get(erased) : undefined);
          if (had !== undefined) {
            const r = events.get(had);
            if (r && !duplicates.some((d) => d.id === had)) duplicates.push(copy(r.event));
            continue;
          }
          events.set(ev.id, { event: copy(ev), logq: true });
          importKeys.set(ev.importKey, ev.id);
          importKeyOf.set(ev.id, ev.importKey);
          stored.push(ev);
        }
        return { stored, duplicates };
      },
    },
    links: memoryLinkStore(call),
  };

  function erasedEvent(id: string): boolean {
    return !!events.get(id)?.event.erasedAt;
  }

  function lapsed(claim: string, limit: number): StateEvent[] {
    return [...states.entries()]
      .filter(([, s]) => s.xc === claim && !!s.xq)
      .slice(0, limit)
      .map(([key, s]) => ({ key, event: { ...copy(s.cur), subject: s.subject, issuer: s.issuer, target: s.target, scope: s.scope } }));
  }
}
