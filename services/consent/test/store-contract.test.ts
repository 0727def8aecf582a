/**
 * The consent store's contract (app/ports.ts), one `describe` per port (the write path, the reads,
 * the exports, the consent log, the lifecycle), run against both adapters: the memory adapter the
 * unit tests use, and the MongoDB adapter on the CI database. What passes here for one passes for
 * the other, so a use case tested against memory behaves the same on MongoDB.
 * (node-oidc-provider's adapter test is the model: one suite, any adapter.)
 */
import { describeStoreContract, memoryAdapter, mongoAdapter } from '@accord/testkit';
import { buildEvents, stateKey, validateInputs, type ConsentEvent, type ConsentInput } from '../src/domain/consent';
import { accountErasureKey, erasedImportKey } from '../src/domain/erasure';
import { idFloor } from '../src/domain/event-id';
import { importedEvent, newImportJob } from '../src/domain/import';
import type { ConsentStore, LogLeaf, TreeHeadRecord } from '../src/app/ports';
import { memoryConsentStore } from '../src/store/memory/store';
import { consentStoreOn } from '../src/store/mongo/store';

const adapters = [memoryAdapter<ConsentStore>(() => memoryConsentStore()), mongoAdapter('storecontract', (conn) => consentStoreOn(conn).store)];

const ISSUER = 'https://shop.example';
const TARGET = 'https://shop.example/privacy';
const later = () => new Date(Date.now() + 60_000);
const ids = (evs: Array<{ id: string }>) => evs.map((e) => e.id);
const byIdAsc = (evs: ConsentEvent[]) => [...evs].sort((x, y) => (x.id < y.id ? -1 : 1));

/** Events of one account and application, in order (ids increasing). */
function evs(accountId: string, inputs: Array<Partial<ConsentInput>>, appId = 'app'): ConsentEvent[] {
  return buildEvents(accountId, appId, validateInputs(inputs.map((i) => ({ subject: 's', issuer: ISSUER, target: TARGET, action: true, ...i }))));
}

describeStoreContract('the consent store', adapters, (s) => {
  describe('the write path (WritePath)', () => {
    describe('events: a request stored whole or not at all', () => {
      it('shows no event of a request cut in half by a failed insert, and the fence settles it for good', async () => {
        const [taken] = evs('acc', [{ subject: 'first' }]);
        await s.events.insert([[taken!]], later());
        const whole = evs('acc', [{ subject: 'whole' }, { subject: 'whole' }]);
        const cut = evs('acc', [{ subject: 'cut' }, { subject: 'cut' }, { subject: 'cut' }]);
        const after = evs('acc', [{ subject: 'after' }]);
        // the ordered insert stops at the event whose id is taken: `whole` and cut[0] are stored
        const clash = { ...cut[1]!, id: taken!.id };
        await expect(s.events.insert([whole, [cut[0]!, clash, cut[2]!], after], later())).rejects.toThrow();

        // stored whole: visible; cut in half: nothing of it anywhere a reader looks
        expect(ids(await s.events.exportPage({ accountId: 'acc', limit: 10 }))).toEqual(ids([taken!, ...whole]));
        expect(await s.events.findById('acc', cut[0]!.id)).toBeUndefined();
        expect(await s.events.findByToken('acc', cut[0]!.token, 10)).toEqual([]);
        expect(await s.events.history({ accountId: 'acc', subject: 'cut', issuer: ISSUER, target: TARGET, limit: 10 })).toEqual([]);
        const acts: string[] = [];
        for await (const a of s.events.actions('acc', 'app', idFloor(0), idFloor(Date.now() + 60_000), 10)) acts.push(a.id);
        expect(acts).toEqual(ids([taken!, ...whole]));
        const pending = await s.logQueue.pending('acc', 10);
        expect(ids(pending.events)).toEqual(ids([taken!, ...whole]));
        expect(pending).toMatchObject({ last: cut[0]!.id, full: false });
        // the relay sees it, marked unsettled
        const claimed = await s.outbox.claimDue('c1', new Date(Date.now() + 120_000), new Date(Date.now() + 240_000), 10);
        expect(claimed.map((e) => [e.id, e.unsettledUntil])).toEqual([
          [taken!.id, undefined],
          [whole[0]!.id, undefined],
          [whole[1]!.id, undefined],
          [cut[0]!.id, cut[2]!.id],
        ]);

        const fate = await s.events.fence([whole[1]!.id, cut[2]!.id, after[0]!.id]);
        expect(Object.fromEntries(fate)).toEqual({ [whole[1]!.id]: 'stored', [cut[2]!.id]: 'fenced', [after[0]!.id]: 'fenced' });
        // fenced for good: fencing again says so, and nothing can be stored under the id any more
        expect(Object.fromEntries(await s.events.fence([cut[2]!.id]))).toEqual({ [cut[2]!.id]: 'fenced' });
        await expect(s.events.insert([after], later())).rejects.toThrow();
        await s.events.withdraw([cut[0]!.id]);
        expect(await s.outbox.claimed('c1', 10)).toHaveLength(3);
        // tombstones are never read as events
        expect(await s.events.findById('acc', after[0]!.id)).toBeUndefined();
        expect(await s.events.count({ accountId: 'acc' }, 1000)).toBe(3);
        expect(await s.outbox.pending()).toMatchObject({ count: 3 });
      });

      it('finds a request stored whole even when its last event is beyond the page read', async () => {
        const req = evs('acc', [{}, {}, {}]);
        await s.events.insert([req], later());
        expect(ids(await s.events.exportPage({ accountId: 'acc', limit: 1 }))).toEqual([req[0]!.id]);
        expect(ids((await s.logQueue.pending('acc', 2)).events)).toEqual(ids(req.slice(0, 2)));
        expect((await s.events.findById('acc', req[0]!.id))?.id).toBe(req[0]!.id);
      });
    });

    describe('current states', () => {
      it('hold the newest event of each state whatever the order of arrival, and ignore an older or repeated one', async () => {
        const [old, mid, next] = evs('acc', [{ action: true }, { action: false }, { action: null, expiresAt: new Date(Date.now() + 3_600_000) }]);
        await s.current.apply([mid!]);
        await s.current.apply([next!, old!]);
        await s.current.apply([mid!]);
        await s.current.apply([next!]);
        const key = stateKey('acc', 's', ISSUER, TARGET, 'default');
        expect([...(await s.current.byKeys('acc', [key, 'nope'])).entries()]).toEqual([[key, next]]);
        expect((await s.current.byKeys('acc-other', [key])).size).toBe(0);
        expect(await s.current.ofSubject('acc', 's', ISSUER, [TARGET], 10)).toEqual([next]);
        // what a decision reads of it, and nothing more
        expect([...(await s.current.forDecisions('acc', [key, 'nope'])).entries()]).toEqual([
          [key, { id: next!.id, action: null, expiresAt: next!.expiresAt }],
        ]);
        expect((await s.current.forDecisions('acc-other', [key])).size).toBe(0);
        const [versioned] = evs('acc', [{ scope: 'v', action: true, targetVersion: 3 }]);
        await s.current.apply([versioned!]);
        const vkey = stateKey('acc', 's', ISSUER, TARGET, 'v');
        expect(await s.current.forDecisions('acc', [vkey, key])).toEqual(
          new Map([
            [vkey, { id: versioned!.id, action: true, targetVersion: 3 }],
            [key, { id: next!.id, action: null, expiresAt: next!.expiresAt }],
          ]),
        );
      });

      it('are listed by subject and issuer for the targets asked, at most the limit', async () => {
        const list = evs('acc', [{ scope: 'a' }, { scope: 'b' }, { target: 'https://t2' }, { target: 'https://t3' }, { subject: 'x' }]);
        await s.current.apply(list);
        expect(byIdAsc(await s.current.ofSubject('acc', 's', ISSUER, [TARGET, 'https://t2'], 10))).toEqual(list.slice(0, 3));
        expect(await s.current.ofSubject('acc', 's', ISSUER, [TARGET, 'https://t2'], 2)).toHaveLength(2);
        expect(byIdAsc(await s.current.ofSubject('acc', 's', ISSUER, [], 10))).toEqual(list.slice(0, 4));
        expect(await s.current.ofSubject('acc', 's', 'https://other', [TARGET], 10)).toEqual([]);
      });
    });

    describe('statistics', () => {
      it("count an application's events, targets and distinct subjects, and group the current states it holds", async () => {
        const now = Date.now();
        const list = evs('acc', [
          { action: true, subject: 'a' },
          { action: false, subject: 'b', targetVersion: 2 },
          { action: null, subject: 'a', target: 'https://t2', expiresAt: new Date(now + 1000) },
          { action: true, subject: 'a' },
        ]);
        await s.events.insert([list], later());
        await s.current.apply(list);
        await s.statistics.count(list);
        await s.statistics.count(evs('acc', [{}], 'app-2'));
        const read = await s.statistics.read('acc', 'app', new Date(now + 2000));
        expect(read).toMatchObject({
          app: { total: 4, accepted: 2, declined: 1, noAction: 1 },
          targets: [
            { target: TARGET, events: 3 },
            { target: 'https://t2', events: 1 },
          ],
          distinctSubjects: 2,
          latestEventAt: list[3]!.createdAt,
        });
        const order = (x: { target: string; action: boolean | null }) => `${x.target} ${String(x.action)}`;
        expect(read.states.sort((x, y) => (order(x) < order(y) ? -1 : 1))).toEqual([
          { target: TARGET, action: false, expired: false, version: 2, count: 1 },
          { target: TARGET, action: true, expired: false, version: undefined, count: 1 },
          { target: 'https://t2', action: null, expired: true, version: undefined, count: 1 },
        ]);
        expect(await s.statistics.eventTotal({ accountId: 'acc' })).toBe(5);
        expect(await s.statistics.eventTotal({ accountId: 'acc', appId: 'app' })).toBe(4);
        expect(await s.statistics.eventTotal({ accountId: 'acc', target: TARGET })).toBe(4);
        expect(await s.statistics.read('acc', 'none', new Date())).toMatchObject({ app: { total: 0 }, targets: [], distinctSubjects: 0, states: [] });
      });
    });
  });

  describe('the reads (Reads)', () => {
    describe('events', () => {
      it('reads events back by id (within their account only), by token newest first, and as a history with filters and a cursor', async () => {
        const [a, b, c, d] = evs('acc', [{ scope: 'email', source: 'web' }, { scope: 'sms' }, { scope: 'email' }, { subject: 'other' }]);
        await s.events.insert([[a!, b!], [c!], [d!]], later());
        expect(await s.events.findById('acc', a!.id)).toEqual(a);
        expect(await s.events.findById('acc-other', a!.id)).toBeUndefined();
        expect(await s.events.findById('acc', 'f'.repeat(32))).toBeUndefined();

        const [t] = evs('acc', [{}]);
        const sameToken = { ...t!, token: a!.token };
        await s.events.insert([[sameToken]], later());
        expect(ids(await s.events.findByToken('acc', a!.token, 10))).toEqual([sameToken.id, a!.id]);
        expect(ids(await s.events.findByToken('acc', a!.token, 1))).toEqual([sameToken.id]);

        const q = { accountId: 'acc', subject: 's', issuer: ISSUER, target: TARGET, limit: 10 };
        expect(ids(await s.events.history(q))).toEqual(ids([sameToken, c!, b!, a!]));
        expect(ids(await s.events.history({ ...q, scope: 'email' }))).toEqual(ids([c!, a!]));
        expect(ids(await s.events.history({ ...q, source: 'web' }))).toEqual([a!.id]);
        expect(ids(await s.events.history({ ...q, before: c!.id, limit: 1 }))).toEqual([b!.id]);
        expect(await s.events.history({ ...q, accountId: 'acc-other' })).toEqual([]);
      });

      it('answer the newest event of each state before an id bound, for many states in one call, within the account', async () => {
        const [a1, b1, a2, b2, a3, other] = evs('acc', [
          { action: true },
          { scope: 'sms', action: false },
          { action: false },
          { scope: 'sms', action: true },
          { action: true },
          { subject: 'x' },
        ]);
        const [foreign] = evs('acc-2', [{ action: true }]);
        await s.events.insert([[a1!, b1!], [a2!], [b2!, a3!], [other!], [foreign!]], later());
        const refs = [
          { subject: 's', issuer: ISSUER, target: TARGET, scope: 'default' },
          { subject: 's', issuer: ISSUER, target: TARGET, scope: 'sms' },
          { subject: 'nobody', issuer: ISSUER, target: TARGET, scope: 'default' },
        ];
        const keyA = stateKey('acc', 's', ISSUER, TARGET, 'default');
        const keyB = stateKey('acc', 's', ISSUER, TARGET, 'sms');
        expect(await s.events.newestBefore('acc', refs, a3!.id)).toEqual(
          new Map([
            [keyA, a2],
            [keyB, b2],
          ]),
        );
        expect(await s.events.newestBefore('acc', refs, b2!.id)).toEqual(
          new Map([
            [keyA, a2],
            [keyB, b1],
          ]),
        );
        expect(await s.events.newestBefore('acc', refs, 'f'.repeat(32))).toEqual(
          new Map([
            [keyA, a3],
            [keyB, b2],
          ]),
        );
        expect((await s.events.newestBefore('acc', refs, a1!.id)).size).toBe(0);
        expect((await s.events.newestBefore('acc-other', refs, 'f'.repeat(32))).size).toBe(0);
        expect((await s.events.newestBefore('acc', [], 'f'.repeat(32))).size).toBe(0);
      });
    });

    describe('signals', () => {
      /** IAB-encoded (see services/consent/src/domain/signals.test.ts): a TCF 2.3 TC string and a GPP string with uspv1, usnat, usca. */
      const TC = 'CQuMEMAQuMEMAAKACAENCWFoALAAAEIAAAYgAAoAAAAA.IAAA.YAAAAAAAAAAA';
      const GPP = 'DBABzYA~1YYN~CEAWAAAAAABA.QA~BAQAAABA.QA';

      it('keep gpc, both strings with what they say, and the jurisdiction through reads, history filters and current states; absent ones stay absent', async () => {
        const [signalled, plain, other] = evs('acc', [
          { action: null, gpc: true, tcString: TC, gppString: GPP, jurisdiction: 'us-ca', addtlConsent: '2~1.35~dv.9' },
          { subject: 'p', action: true },
          { action: true, gpc: false, jurisdiction: 'DE' },
        ]);
        expect(signalled).toMatchObject({
          gpc: true,
          jurisdiction: 'US-CA',
          tcf: { purposes: [1, 3, 4] },
          gpp: { sections: ['uspv1', 'usnat', 'usca'] },
          addtlConsent: '2~1.35~dv.9',
        });
        await s.events.insert([[signalled!, plain!, other!]], later());
        expect(await s.events.findById('acc', signalled!.id)).toEqual(signalled);
        const back = await s.events.findById('acc', plain!.id);
        expect(back).toEqual(plain);
        for (const f of ['gpc', 'tcString', 'tcf', 'gppString', 'gpp', 'jurisdiction', 'addtlConsent']) expect(back).not.toHaveProperty(f);
        const history = (q: { gpc?: boolean; jurisdiction?: string }) =>
          s.events.history({ accountId: 'acc', subject: 's', issuer: ISSUER, target: TARGET, limit: 10, ...q });
        expect(ids(await history({ gpc: true }))).toEqual([signalled!.id]);
        expect(ids(await history({ gpc: false }))).toEqual([other!.id]);
        expect(ids(await history({ jurisdiction: 'US-CA' }))).toEqual([signalled!.id]);
        expect((await s.events.exportPage({ accountId: 'acc', limit: 10 }))[0]).toEqual(signalled);

        await s.current.apply([signalled!, plain!]);
        const key = stateKey('acc', 's', ISSUER, TARGET, 'default');
        expect((await s.current.byKeys('acc', [key])).get(key)).toEqual(signalled);
        expect((await s.current.forDecisions('acc', [key])).get(key)).toEqual({ id: signalled!.id, action: null, gpc: true, jurisdiction: 'US-CA' });
        // the TC string only when a call asks TCF vendors
        expect((await s.current.forDecisions('acc', [key], { tcString: true })).get(key)).toEqual({
          id: signalled!.id,
          action: null,
          gpc: true,
          jurisdiction: 'US-CA',
          tcString: signalled!.tcString,
        });
        // the AC string only when a call asks Google ATPs
        expect((await s.current.forDecisions('acc', [key], { addtlConsent: true })).get(key)).toEqual({
          id: signalled!.id,
          action: null,
          gpc: true,
          jurisdiction: 'US-CA',
          addtlConsent: '2~1.35~dv.9',
        });
        await s.current.apply([other!]);
        expect((await s.current.byKeys('acc', [key])).get(key)).toEqual(other);
        expect((await s.current.forDecisions('acc', [key])).get(key)).toEqual({ id: other!.id, action: true, gpc: false, jurisdiction: 'DE' });
        expect(await s.current.ofSubject('acc', 'p', ISSUER, [], 10)).toEqual([plain]);
      });

      it('are counted: GPC-driven declines of an application, its events by jurisdiction (most first), current states that are GPC declines', async () => {
        const list = evs('acc', [
          { subject: 'a', action: null, gpc: true, jurisdiction: 'US-CA' },
          { subject: 'b', action: true, gpc: true, jurisdiction: 'US-CA' },
          { subject: 'c', action: null, jurisdiction: 'DE' },
          { subject: 'd', action: null, gpc: true },
        ]);
        await s.events.insert([list], later());
        await s.current.apply(list);
        await s.statistics.count(list);
        await s.statistics.count(evs('acc', [{ jurisdiction: 'FR' }], 'app-2'));
        const read = await s.statistics.read('acc', 'app', new Date());
        expect(read.app).toEqual({ total: 4, accepted: 1, declined: 0, noAction: 3, gpcDeclines: 2 });
        expect(read.jurisdictions).toEqual([
          { jurisdiction: 'US-CA', events: 2 },
          { jurisdiction: 'DE', events: 1 },
        ]);
        const sum = (pick: (x: (typeof read.states)[number]) => boolean) => read.states.filter(pick).reduce((n, x) => n + x.count, 0);
        expect(sum((x) => x.gpcDecline === true)).toBe(2);
        expect(sum((x) => x.action === null && !x.gpcDecline)).toBe(1);
        expect(await s.statistics.eventTotal({ accountId: 'acc' })).toBe(5);
      });
    });
  });

  describe('the exports (Exports)', () => {
    describe('events', () => {
      it('exports an account oldest first within id bounds and filters, and counts what an export holds', async () => {
        const all = evs('acc', [{}, { subject: 'x' }, { target: 'https://shop.example/other' }, {}]);
        const [other] = evs('acc', [{}], 'app-2');
        await s.events.insert([all, [other!], evs('acc-2', [{}])], later());
        const mine = byIdAsc([...all, other!]);
        expect(ids(await s.events.exportPage({ accountId: 'acc', limit: 10 }))).toEqual(ids(mine));
        expect(ids(await s.events.exportPage({ accountId: 'acc', limit: 2 }))).toEqual(ids(mine.slice(0, 2)));
        expect(ids(await s.events.exportPage({ accountId: 'acc', after: mine[1]!.id, limit: 10 }))).toEqual(ids(mine.slice(2)));
        expect(ids(await s.events.exportPage({ accountId: 'acc', from: mine[1]!.id, before: mine[3]!.id, limit: 10 }))).toEqual(ids(mine.slice(1, 3)));
        expect(ids(await s.events.exportPage({ accountId: 'acc', appId: 'app-2', limit: 10 }))).toEqual([other!.id]);
        expect(ids(await s.events.exportPage({ accountId: 'acc', subject: 'x', limit: 10 }))).toEqual([all[1]!.id]);
        expect(ids(await s.events.exportPage({ accountId: 'acc', target: 'https://shop.example/other', limit: 10 }))).toEqual([all[2]!.id]);
        expect(ids(await s.events.exportPage({ accountId: 'acc', from: idFloor(Date.now() + 60_000), limit: 10 }))).toEqual([]);
        expect(await s.events.count({ accountId: 'acc' }, 1000)).toBe(5);
        expect(await s.events.count({ accountId: 'acc', subject: 's', after: mine[0]!.id }, 1000)).toBe(3);
      });

      it("lists an application's actions by id within bounds, at most the limit", async () => {
        const list = evs('acc', [{ action: true }, { action: false }, { action: null }, { action: true }]);
        await s.events.insert([list, evs('acc', [{}], 'app-2')], later());
        const got: Array<{ id: string; action: boolean | null }> = [];
        for await (const a of s.events.actions('acc', 'app', list[1]!.id, list[3]!.id, 10)) got.push(a);
        expect(got).toEqual([
          { id: list[1]!.id, action: false },
          { id: list[2]!.id, action: null },
        ]);
        const first: string[] = [];
        for await (const a of s.events.actions('acc', 'app', idFloor(0), idFloor(Date.now() + 60_000), 2)) first.push(a.id);
        expect(first).toEqual(ids(list.slice(0, 2)));
      });
    });
  });

  describe('the consent log (LogPorts)', () => {
    describe('log queue', () => {
      it('lists every account with waiting events, and pages an account by id until they are logged', async () => {
        const list = Array.from({ length: 150 }, (_, i) => evs(`acc-${String(i).padStart(3, '0')}`, [{}])[0]!);
        await s.events.insert(
          list.map((e) => [e]),
          later(),
        );
        expect((await s.logQueue.accounts()).sort()).toEqual(list.map((e) => e.accountId).sort());
        const mine = evs('acc-000', [{}, {}, {}]);
        await s.events.insert([mine], later());
        const page1 = await s.logQueue.pending('acc-000', 2);
        expect(page1).toEqual({ events: [list[0], mine[0]], last: mine[0]!.id, full: true });
        const page2 = await s.logQueue.pending('acc-000', 2, page1.last);
        expect(page2).toEqual({ events: mine.slice(1), last: mine[2]!.id, full: true });
        expect(await s.logQueue.isPending('acc-000', mine[0]!.id)).toBe(true);
        expect(await s.logQueue.isPending('acc-001', mine[0]!.id)).toBe(false);
        await s.logQueue.markLogged([list[0]!.id, ...ids(mine)]);
        expect(await s.logQueue.pending('acc-000', 2)).toEqual({ events: [], full: false });
        expect(await s.logQueue.isPending('acc-000', mine[0]!.id)).toBe(false);
        expect(await s.logQueue.accounts()).not.toContain('acc-000');
      });

      it('marks the published events it is given in the same write, and only those', async () => {
        const t = Date.now();
        const [published, waiting] = evs('acc', [{}, {}]);
        await s.events.insert([[published!], [waiting!]], new Date(t + 60_000));
        await s.logQueue.markLogged([published!.id, waiting!.id], [published!.id]);
        expect(await s.logQueue.pending('acc', 10)).toEqual({ events: [], full: false });
        // the one not acknowledged by JetStream is still the relay's, due after its lease
        expect(await s.outbox.pending()).toEqual({ count: 1, oldestStoredAt: waiting!.createdAt });
        expect(ids(await s.outbox.claimDue('r', new Date(t + 61_000), new Date(t + 99_000), 10))).toEqual([waiting!.id]);
      });
    });

    describe('log tree', () => {
      const leaf = (i: number, eventId = `ev-${i}`): LogLeaf => ({
        accountId: 'acc',
        leafIndex: i,
        eventId,
        leafHash: Buffer.alloc(32, i),
        at: new Date(1000 + i),
      });
      const head = (treeSize: number): TreeHeadRecord => ({
        accountId: 'acc',
        treeSize,
        rootHash: `root-${treeSize}`,
        timestamp: new Date(treeSize),
        signature: 'sig',
        kid: 'k',
      });

      it('keeps one lease holder per account until its lease runs out', async () => {
        const t = (ms: number) => new Date(1_000_000 + ms);
        expect(await s.log.takeLease('acc', 'a', t(0), t(1000))).toBe(true);
        expect(await s.log.takeLease('acc', 'b', t(10), t(1010))).toBe(false);
        expect(await s.log.takeLease('acc', 'a', t(500), t(1500))).toBe(true);
        expect(await s.log.takeLease('acc', 'b', t(1600), t(2600))).toBe(true);
        await s.log.releaseLease('acc', 'a');
        expect(await s.log.takeLease('acc', 'a', t(1700), t(2700))).toBe(false);
        await s.log.releaseLease('acc', 'b');
        expect(await s.log.takeLease('acc', 'a', t(1800), t(2800))).toBe(true);
      });

      it('fills each position and gives each event a leaf once, and reads leaves, subtrees and heads back', async () => {
        expect(await s.log.insertLeaves([leaf(0), leaf(1), leaf(2)])).toBe(true);
        expect(await s.log.insertLeaves([leaf(3), leaf(2, 'ev-x')])).toBe(false); // position 2 is taken; 3 went in before it
        expect(await s.log.insertLeaves([leaf(4, 'ev-0')])).toBe(false); // ev-0 has a leaf
        expect((await s.log.leavesFrom('acc', 1)).map((l) => l.leafIndex)).toEqual([1, 2, 3]);
        expect(await s.log.leavesFrom('acc', 4)).toEqual([]);
        expect(await s.log.leaf('acc', 'ev-2')).toEqual(leaf(2));
        expect(await s.log.leaf('acc-other', 'ev-2')).toBeUndefined();
        expect([...(await s.log.withLeaves(['ev-1', 'ev-9', 'ev-3']))].sort()).toEqual(['ev-1', 'ev-3']);

        await s.log.insertSubtrees('acc', [{ level: 1, index: 0, hash: Buffer.alloc(32, 7) }]);
        await s.log.insertSubtrees('acc', [
          { level: 1, index: 0, hash: Buffer.alloc(32, 7) },
          { level: 0, index: 2, hash: Buffer.alloc(32, 2) },
        ]);
        const got = await s.log.subtrees('acc', [
          { level: 1, index: 0 },
          { level: 0, index: 2 },
          { level: 0, index: 3 },
        ]);
        expect([...got.entries()].sort()).toEqual([
          ['0/2', Buffer.alloc(32, 2)],
          ['1/0', Buffer.alloc(32, 7)],
        ]);
        expect((await s.log.subtrees('acc-other', [{ level: 1, index: 0 }])).size).toBe(0);

        expect(await s.log.latestHead('acc')).toBeUndefined();
        expect(await s.log.insertHead(head(2))).toBe(true);
        expect(await s.log.insertHead(head(3))).toBe(true);
        expect(await s.log.insertHead({ ...head(3), signature: 'other' })).toBe(false);
        expect(await s.log.latestHead('acc')).toEqual(head(3));
        expect(await s.log.head('acc', 2)).toEqual(head(2));
        expect(await s.log.head('acc', 4)).toBeUndefined();
      });
    });
  });

  describe('the lifecycle (Lifecycle)', () => {
    describe('outbox', () => {
      it('claims due events once until the lease runs out, publishes, defers and counts what waits', async () => {
        const t = Date.now();
        const [a, b] = evs('acc', [{}, {}]);
        await s.events.insert([[a!]], new Date(t - 1000));
        await s.events.insert([[b!]], new Date(t + 60_000));
        expect(await s.outbox.pending()).toEqual({ count: 2, oldestStoredAt: a!.createdAt });
        expect(ids(await s.outbox.claimDue('r1', new Date(t), new Date(t + 5000), 10))).toEqual([a!.id]);
        expect(await s.outbox.claimDue('r2', new Date(t + 1000), new Date(t + 6000), 10)).toEqual([]); // leased to r1
        expect(ids(await s.outbox.claimed('r1', 10))).toEqual([a!.id]);
        await s.outbox.defer([a!.id], new Date(t + 2000));
        expect(ids(await s.outbox.claimDue('r3', new Date(t + 2000), new Date(t + 9000), 10))).toEqual([a!.id]);
        await s.outbox.markPublished([a!.id]);
        expect(await s.outbox.claimed('r3', 10)).toEqual([]);
        expect(await s.outbox.pending()).toEqual({ count: 1, oldestStoredAt: b!.createdAt });
        expect(ids(await s.outbox.claimDue('r4', new Date(t + 61_000), new Date(t + 99_000), 10))).toEqual([b!.id]);
      });
    });

    describe('expiry queue', () => {
      it('claims each lapsed state once per lease, never a renewed one, and never again once announced', async () => {
        const t = Date.now();
        const [lapsing, renewedOld, lasting] = evs('acc', [
          { subject: 'l', expiresAt: new Date(t + 1000) },
          { subject: 'r', expiresAt: new Date(t + 1000) },
          { subject: 'k', expiresAt: new Date(t + 3_600_000) },
        ]);
        await s.current.apply([lapsing!, renewedOld!, lasting!]);
        const [renewal] = evs('acc', [{ subject: 'r' }]);
        await s.current.apply([renewal!]);
        expect(await s.expiry.claimLapsed('c0', new Date(t), new Date(t + 500), 10)).toEqual([]);
        const claimed = await s.expiry.claimLapsed('c1', new Date(t + 2000), new Date(t + 5000), 10);
        expect(claimed).toEqual([{ key: stateKey('acc', 'l', ISSUER, TARGET, 'default'), event: lapsing }]);
        expect(await s.expiry.claimLapsed('c2', new Date(t + 3000), new Date(t + 6000), 10)).toEqual([]);
        expect(await s.expiry.lapsedOfClaim('c1', 10)).toHaveLength(1);
        // the same event applied again keeps its place in the queue
        await s.current.apply([lapsing!]);
        expect(await s.expiry.claimLapsed('c3', new Date(t + 4000), new Date(t + 8000), 10)).toEqual([]);
        await s.expiry.markAnnounced([{ key: claimed[0]!.key, eventId: lapsing!.id }]);
        expect(await s.expiry.lapsedOfClaim('c1', 10)).toEqual([]);
        expect(await s.expiry.claimLapsed('c4', new Date(t + 10 ** 9), new Date(t + 10 ** 9 + 1), 10)).toEqual([
          { key: stateKey('acc', 'k', ISSUER, TARGET, 'default'), event: lasting },
        ]);
      });
    });

    describe('renewal jobs', () => {
      it('make one job per version, held by one owner at a time, recording progress only for its owner', async () => {
        const t = new Date();
        const spec = { accountId: 'acc', specId: 'sp', version: 3, targets: [TARGET] };
        const job = await s.renewals.job(spec, t);
        expect(job).toMatchObject({ id: 'sp:3', ...spec, announced: 0, done: false });
        expect((await s.renewals.job({ ...spec, targets: ['x'] }, new Date(t.getTime() + 5))).targets).toEqual([TARGET]);
        const until = new Date(t.getTime() + 1000);
        expect(await s.renewals.claim('sp:3', 'a', t, until)).toMatchObject({ owner: 'a', leaseUntil: until });
        expect(await s.renewals.claim('sp:3', 'b', t, until)).toBeNull();
        expect(await s.renewals.advance('sp:3', 'b', 'k1', 5, until)).toBe(false);
        expect(await s.renewals.advance('sp:3', 'a', 'k1', 5, new Date(t.getTime() + 2000))).toBe(true);
        expect(await s.renewals.claim('sp:3', 'b', new Date(t.getTime() + 2500), new Date(t.getTime() + 5000))).toMatchObject({
          owner: 'b',
          lastKey: 'k1',
          announced: 5,
        });
        expect(await s.renewals.finish('sp:3', 'a')).toBe(false);
        expect(await s.renewals.finish('sp:3', 'b')).toBe(true);
        expect(await s.renewals.claim('sp:3', 'c', new Date(t.getTime() + 10 ** 6), new Date(t.getTime() + 10 ** 7))).toBeNull();
      });

      it('page through the states consented to an older version, by key', async () => {
        const list = evs('acc', [
          { subject: 'a', targetVersion: 1 },
          { subject: 'b', targetVersion: 2 },
          { subject: 'c', targetVersion: 3 },
          { subject: 'd' },
          { subject: 'e', targetVersion: 1, target: 'https://elsewhere' },
        ]);
        await s.current.apply(list);
        const keyOf = (e: ConsentEvent) => stateKey('acc', e.subject, ISSUER, e.target, 'default');
        const due = [list[0]!, list[1]!].sort((x, y) => (keyOf(x) < keyOf(y) ? -1 : 1));
        const first = await s.renewals.page('acc', [TARGET], 3, undefined, 1);
        expect(first).toEqual({ states: [{ key: keyOf(due[0]!), event: due[0] }], lastKey: keyOf(due[0]!), full: true });
        const second = await s.renewals.page('acc', [TARGET], 3, first.lastKey, 5);
        expect(second).toEqual({ states: [{ key: keyOf(due[1]!), event: due[1] }], lastKey: keyOf(due[1]!), full: false });
      });
    });

    describe('erasure', () => {
      it('rewrites events while their subject is the one read, moves states and markers, and records erasures newest first', async () => {
        const list = evs('acc', [{ subject: 'gina', source: 'web' }, { subject: 'gina', issuer: 'https://other' }, { subject: 'ivo' }]);
        await s.events.insert([list], later());
        await s.logQueue.markLogged([list[1]!.id]);
        await s.current.apply(list);
        await s.statistics.count(list);
        const clear = await s.erasure.inClear('acc', 'gina', undefined, 10);
        expect(clear.map((e) => [e.id, e.logPending])).toEqual([
          [list[0]!.id, true],
          [list[1]!.id, false],
        ]);
        expect(ids(await s.erasure.inClear('acc', 'gina', 'https://other', 10))).toEqual([list[1]!.id]);
        const at = new Date();
        const set = { subject: 'erased:g', source: 'erased:w', erasedAt: at, leafHash: Buffer.alloc(32, 9) };
        expect(
          await s.erasure.rewrite([
            { id: list[0]!.id, subject: 'gina', set },
            { id: list[2]!.id, subject: 'gina', set },
          ]),
        ).toBe(1);
        expect(await s.events.findById('acc', list[0]!.id)).toMatchObject({ subject: 'erased:g', source: 'erased:w', erasedAt: at });
        expect((await s.logQueue.pending('acc', 10)).events.find((e) => e.id === list[0]!.id)?.leafHash).toEqual(Buffer.alloc(32, 9));
        expect([...(await s.erasure.erased(ids(list)))]).toEqual([list[0]!.id]);
        expect(await s.erasure.hasInClear('acc', 'app', 'gina')).toBe(true);

        const key = stateKey('acc', 'gina', ISSUER, TARGET, 'default');
        const states = await s.erasure.statesOf('acc', 'gina', ISSUER, [], 10);
        expect(states).toEqual([{ key, event: list[0] }]);
        expect(await s.erasure.statesOf('acc', 'gina', ISSUER, [key], 10)).toEqual([]);
        const to = stateKey('acc', 'erased:g', ISSUER, TARGET, 'default');
        const moved = { ...list[0]!, subject: 'erased:g', source: 'erased:w' };
        // a newer event in the old state keeps it
        await s.erasure.moveStates([{ from: key, eventId: 'f'.repeat(32), to, event: moved }]);
        expect((await s.current.byKeys('acc', [key])).size).toBe(1);
        await s.erasure.moveStates([{ from: key, eventId: list[0]!.id, to, event: moved }]);
        expect((await s.current.byKeys('acc', [key])).size).toBe(0);
        expect(await s.current.byKeys('acc', [to])).toEqual(new Map([[to, moved]]));

        expect((await s.statistics.read('acc', 'app', new Date())).distinctSubjects).toBe(2);
        await s.erasure.moveSubjectMarkers('acc', 'gina', 'erased:g', ['app']);
        expect((await s.statistics.read('acc', 'app', new Date())).distinctSubjects).toBe(2);

        const rec = (id: string) => ({ id, accountId: 'acc', subjectHash: 'erased:g', appId: 'app', clientId: 'c', erasedAt: at, events: 1, states: 1 });
        await s.erasure.record(rec('01'));
        await s.erasure.record({ ...rec('02'), issuer: 'https://other' });
        await s.erasure.record({ ...rec('03'), accountId: 'acc-2' });
        expect(await s.erasure.list('acc', 10)).toEqual([{ ...rec('02'), issuer: 'https://other' }, rec('01')]);
        expect(await s.erasure.list('acc', 10, '02')).toEqual([rec('01')]);
      });

      it('keeps a moved state in the expiry queue where it was', async () => {
        const t = Date.now();
        const [ev] = evs('acc', [{ subject: 'gina', expiresAt: new Date(t + 1000) }]);
        await s.current.apply([ev!]);
        const [claimed] = await s.expiry.claimLapsed('c', new Date(t + 2000), new Date(t + 9000), 10);
        await s.expiry.markAnnounced([{ key: claimed!.key, eventId: ev!.id }]);
        const [state] = await s.erasure.statesOf('acc', 'gina', undefined, [], 10);
        const to = stateKey('acc', 'erased:g', ISSUER, TARGET, 'default');
        await s.erasure.moveStates([
          { from: state!.key, eventId: ev!.id, to, event: { ...ev!, subject: 'erased:g' }, ...(state!.expiryDue ? { expiryDue: state!.expiryDue } : {}) },
        ]);
        expect(await s.expiry.claimLapsed('c2', new Date(t + 10 ** 8), new Date(t + 10 ** 8 + 1), 10)).toEqual([]);
      });
    });

    describe('imports', () => {
      const imported = (o: Record<string, unknown>, accountId = 'acc') => {
        const r = importedEvent(
          { subject: 's', issuer: ISSUER, target: TARGET, action: true, createdAt: '2019-05-01T10:00:00.000Z', ...o },
          accountId,
          'app',
          new Date(),
        );
        if (!('event' in r)) throw new Error(JSON.stringify(r.errors));
        return r.event;
      };

      it('stores an imported event once per key and account, with createdAt and importedAt, waiting for its leaf and never for the bus', async () => {
        const a = imported({ externalId: 'e-1' });
        const b = imported({ externalId: 'e-2', action: false });
        expect(await s.imports.insertEvents([a, b])).toEqual({ stored: [a, b], duplicates: [] });
        const again = imported({ externalId: 'e-1', action: false });
        const other = imported({ externalId: 'e-1' }, 'acc-2');
        const out = await s.imports.insertEvents([again, other]);
        expect(ids(out.stored)).toEqual([other.id]);
        expect(ids(out.duplicates)).toEqual([a.id]);
        const { importKey: _k, ...plain } = a;
        expect(await s.events.findById('acc', a.id)).toEqual(plain);
        expect((await s.events.findById('acc', a.id))!.importedAt).toEqual(a.importedAt);
        expect((await s.logQueue.pending('acc', 10)).events.map((e) => e.id)).toEqual(expect.arrayContaining([a.id, b.id]));
        expect(ids(await s.outbox.claimDue('relay', new Date(Date.now() + 10 ** 8), new Date(Date.now() + 10 ** 9), 100))).not.toContain(a.id);
      });

      it('erasure replaces an imported event’s key by its keyed hash; a line of that key is then a duplicate only when its erased form is given', async () => {
        const key = accountErasureKey('secret-of-the-installation-for-tests-only', 'acc');
        const a = imported({ subject: 'gina', externalId: 'order-gina@example.com' });
        const b = imported({ subject: 'ivo' });
        await s.imports.insertEvents([a, b]);
        const clear = await s.erasure.inClear('acc', 'gina', undefined, 10);
        expect(clear.map((e) => [e.id, e.importKey])).toEqual([[a.id, 'acc/x:order-gina@example.com']]);
        const erasedKey = erasedImportKey(key, 'acc', a.importKey);
        expect(erasedKey).toMatch(/^acc\/e:[A-Za-z0-9_-]{43}$/);
        expect(await s.erasure.rewrite([{ id: a.id, subject: 'gina', set: { subject: 'erased:g', erasedAt: new Date(), importKey: erasedKey } }])).toBe(1);
        expect(await s.erasure.inClear('acc', 'gina', undefined, 10)).toEqual([]);
        // the line again, told the erased form of its key: a duplicate (the erased event), nothing stored in clear
        const again = imported({ subject: 'gina', externalId: 'order-gina@example.com' });
        const out = await s.imports.insertEvents([again, imported({ subject: 'ivo' })], [erasedKey, erasedImportKey(key, 'acc', b.importKey)]);
        expect(out.stored).toEqual([]);
        expect(ids(out.duplicates).sort()).toEqual([a.id, b.id].sort());
        expect(out.duplicates.find((e) => e.id === a.id)).toMatchObject({ subject: 'erased:g' });
        // the key in clear is gone from the store: without its erased form the line is new
        expect(ids((await s.imports.insertEvents([again])).stored)).toEqual([again.id]);
      });

      it('an old imported event never replaces a newer live one as the current state', async () => {
        const [live] = evs('acc', [{ action: false }]);
        await s.current.apply([live!]);
        const old = imported({ action: true });
        await s.imports.insertEvents([old]);
        await s.current.apply([old]);
        const key = stateKey('acc', 's', ISSUER, TARGET, 'default');
        expect((await s.current.byKeys('acc', [key])).get(key)!.id).toBe(live!.id);
        // and an imported event newer than the state replaces it
        await new Promise((r) => setTimeout(r, 5));
        const newer = imported({ createdAt: new Date(Date.now() - 1).toISOString(), externalId: 'n' });
        await s.current.apply([newer]);
        expect((await s.current.byKeys('acc', [key])).get(key)!.importedAt).toEqual(newer.importedAt);
      });

      it('keeps a job: progress adds up, errors as sent, finish once; only in its account', async () => {
        const at = new Date();
        const job = newImportJob('j1', 'acc', 'app', 'ndjson', at);
        await s.imports.create(job);
        await s.imports.progress(
          'acc',
          'j1',
          { read: 3, stored: 2, duplicates: 0, refused: 1, errors: [{ line: 2, field: 'createdAt', detail: 'is required' }] },
          at,
        );
        const j = await s.imports.progress('acc', 'j1', { read: 1, stored: 0, duplicates: 1, refused: 0, errors: [] }, at);
        expect(j).toMatchObject({ read: 4, stored: 2, duplicates: 1, refused: 1, errors: [{ line: 2, field: 'createdAt', detail: 'is required' }] });
        expect(await s.imports.get('acc-2', 'j1')).toBeUndefined();
        expect(await s.imports.progress('acc-2', 'j1', { read: 1, stored: 0, duplicates: 0, refused: 0, errors: [] }, at)).toBeUndefined();
        expect((await s.imports.finish('acc', 'j1', 'failed', 'connection closed', at))!).toMatchObject({ state: 'failed', failure: 'connection closed' });
        expect((await s.imports.finish('acc', 'j1', 'done', undefined, at))!.state).toBe('failed');
        expect(await s.imports.progress('acc', 'j1', { read: 1, stored: 0, duplicates: 0, refused: 0, errors: [] }, at)).toBeUndefined();
      });
    });
  });
});
