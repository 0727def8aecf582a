// The local database answers the project's index shapes from in-memory indexes
// (deploy/local/mongo-java-server: IdLookupMemoryBackend, IndexedH2Backend, SecondaryIndexes,
// OrderedIndex, QueryPlanner); this proves it gives what mongo-java-server, unchanged, gives — its
// memory backend for the tests' database, its H2 file backend for npm start's, across a restart —
// the same queries on the same randomised data (ties, missing fields, nulls, numbers among
// strings, arrays on indexed keys), after inserts, updates, upserts and deletes, compared result
// for result, order included.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Collection, type Document, type Filter } from 'mongodb';

/** The documents here: string ids, now and then a number. */
type Doc = Document & { _id: string | number };
import { startMongoJavaServer } from '@accord/local-stack';

jest.setTimeout(300_000);

type Server = Awaited<ReturnType<typeof startMongoJavaServer>>;
const dir = mkdtempSync(join(tmpdir(), 'accord-index-'));
const servers: Server[] = [];
const clients: MongoClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

/** A small deterministic generator (mulberry32): a failure names its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return { next, pick, int: (n: number) => Math.floor(next() * n) };
}

const ACCOUNTS = ['a1', 'a2'] as const;
const SUBJECTS = ['s1', 's2', 's3', 's4'] as const;
const ISSUERS = ['i1', 'i2'] as const;
const TARGETS = ['t1', 't2', 't3'] as const;
const SCOPES = ['email', 'sms'] as const;
const APPS = ['app1', 'app2', 'app3'] as const;

/** The indexes the consent service declares on consent_events and consent_current (store/mongo/models.ts), and stats' by_app. */
async function declareIndexes(client: MongoClient): Promise<void> {
  const db = client.db('idx');
  const events = db.collection<Doc>('events');
  await events.createIndex({ accountId: 1, subject: 1, issuer: 1, target: 1, _id: -1 }, { name: 'search' });
  await events.createIndex({ accountId: 1, subject: 1, issuer: 1, target: 1, scope: 1, _id: -1 }, { name: 'search_scope' });
  await events.createIndex({ accountId: 1, token: 1, _id: -1 }, { name: 'token' });
  await events.createIndex({ accountId: 1, appId: 1, _id: -1 }, { name: 'app_latest' });
  await events.createIndex({ accountId: 1, _id: 1 }, { name: 'export' });
  await events.createIndex({ pub: 1 }, { name: 'unpublished', sparse: true });
  await events.createIndex({ logq: 1 }, { name: 'log_pending', sparse: true });
  const current = db.collection<Doc>('current');
  await current.createIndex({ accountId: 1, subject: 1, issuer: 1, target: 1 }, { name: 'states' });
  await current.createIndex({ accountId: 1, 'cur.appId': 1, target: 1 }, { name: 'app_states' });
  await current.createIndex({ accountId: 1, target: 1, _id: 1 }, { name: 'target_states' });
  await db.collection<Doc>('stats').createIndex({ kind: 1, accountId: 1, appId: 1, events: -1 }, { name: 'by_app' });
}

function eventDoc(r: ReturnType<typeof random>, i: number): Doc {
  const d: Doc = {
    // time-ordered ids, some in the same millisecond; now and then a number (type-mixed _ids)
    _id: r.next() < 0.03 ? i : `${String(1000 + Math.floor(i / 3)).padStart(8, '0')}${String(i).padStart(6, '0')}`,
    accountId: r.pick(ACCOUNTS),
    subject: r.next() < 0.05 ? r.int(3) : r.pick(SUBJECTS), // a few numbers among strings
    issuer: r.pick(ISSUERS),
    target: r.pick(TARGETS),
    scope: r.pick(SCOPES),
    appId: r.pick(APPS),
    token: `tok${r.int(6)}`,
    action: r.pick([true, false, null]),
  };
  if (r.next() < 0.3) d.part = `p${r.int(4)}`;
  if (r.next() < 0.2) d.pub = new Date(1_700_000_000_000 + r.int(5) * 1000);
  if (r.next() < 0.05) delete d.target; // missing
  if (r.next() < 0.03) d.issuer = null;
  if (r.next() < 0.1) d.gpc = r.next() < 0.5;
  if (r.next() < 0.1) d.logq = r.pick(ACCOUNTS); // waiting for its leaf in the consent log
  return d;
}

function currentDoc(r: ReturnType<typeof random>, i: number): Doc {
  const d: Doc = {
    _id: `state${i}`,
    accountId: r.pick(ACCOUNTS),
    subject: r.pick(SUBJECTS),
    issuer: r.pick(ISSUERS),
    target: r.pick(TARGETS),
    scope: r.pick(SCOPES),
  };
  const shape = r.next();
  if (shape < 0.7) d.cur = { id: `e${i}`, appId: r.pick(APPS), action: r.pick([true, false, null]) };
  else if (shape < 0.85)
    d.appId = r.pick(APPS); // Accord 0.1's flat form: no cur
  else if (shape < 0.9) d.cur = null;
  else if (shape < 0.95)
    d.cur = { id: `e${i}` }; // no appId in cur
  else d.cur = { id: `e${i}`, appId: r.int(2) };
  return d;
}

/** The queries the services send (store/mongo), with random values, and variations around them. */
function queries(r: ReturnType<typeof random>): Array<{ name: string; run: (db: ReturnType<MongoClient['db']>) => Promise<unknown> }> {
  const out: Array<{ name: string; run: (db: ReturnType<MongoClient['db']>) => Promise<unknown> }> = [];
  const ev = (db: ReturnType<MongoClient['db']>) => db.collection<Doc>('events');
  const cur = (db: ReturnType<MongoClient['db']>) => db.collection<Doc>('current');
  const find = (name: string, coll: typeof ev, filter: Filter<Doc>, sort?: Document, limit = 0, skip = 0, projection?: Document) =>
    out.push({
      name: `${name} ${JSON.stringify({ filter, sort, limit, skip, projection })}`,
      run: (db) => {
        let c = coll(db).find(filter, projection ? { projection } : {});
        if (sort) c = c.sort(sort);
        if (skip) c = c.skip(skip);
        if (limit) c = c.limit(limit);
        return c.toArray();
      },
    });
  const aggregate = (name: string, coll: typeof ev, pipeline: Document[]) =>
    out.push({ name: `${name} ${JSON.stringify(pipeline)}`, run: (db) => coll(db).aggregate(pipeline).toArray() });
  const count = (name: string, coll: typeof ev, filter: Filter<Doc>) =>
    out.push({ name: `${name} ${JSON.stringify(filter)}`, run: (db) => coll(db).countDocuments(filter) });
  // the documents with arrays on indexed keys (added in the rounds below): a1/s1 and s2/i1/t1, state1's cur.appId
  for (const subject of ['s1', 's2']) find('array subject', ev, { accountId: 'a1', subject, issuer: 'i1', target: 't1' }, { _id: -1 }, 50);
  find('array subject in', ev, { accountId: 'a1', subject: { $in: ['s2', 's9'] } }, undefined);
  for (const appId of ['app1', 'app2'])
    aggregate('array state', cur, [
      { $match: { accountId: 'a1', $or: [{ 'cur.appId': appId }, { cur: { $exists: false }, appId }] } },
      { $group: { _id: '$target', n: { $sum: 1 } } },
    ]);
  for (let n = 0; n < 6; n++) {
    const accountId = r.pick(ACCOUNTS);
    const subject = r.next() < 0.1 ? r.int(3) : r.pick(SUBJECTS);
    const issuer = r.pick(ISSUERS);
    const target = r.pick(TARGETS);
    const scope = r.pick(SCOPES);
    const appId = r.pick(APPS);
    const bound = `${String(1000 + r.int(200)).padStart(8, '0')}${String(r.int(600)).padStart(6, '0')}`;
    const limit = 1 + r.int(20);
    // history search: without and with scope, source-like extra filters, a page bound
    const history: Document = { subject, target, issuer, accountId };
    find('history', ev, history, { _id: -1 }, limit);
    find('history scope', ev, { ...history, scope }, { _id: -1 }, limit);
    find('history gpc', ev, { ...history, gpc: true }, { _id: -1 }, limit);
    find('history before', ev, { ...history, _id: { $lt: bound } }, { _id: -1 }, limit);
    find('history page', ev, { $and: [{ ...history, _id: { $lt: bound } }, { _id: { $lt: `${bound}z` } }] }, { _id: -1 }, limit);
    find('history skip', ev, history, { _id: -1 }, limit, r.int(3));
    find('history asc', ev, history, { _id: 1 }, limit);
    find('history unlimited', ev, history, { _id: -1 });
    // by token
    find('token', ev, { token: `tok${r.int(6)}`, accountId }, { _id: -1 }, limit);
    // export pages: by account, application, subject, target, time bounds
    find('export', ev, { accountId, _id: { $gt: bound } }, { _id: 1 }, limit, 0, { pub: 0, part: 0 });
    find('export first', ev, { accountId }, { _id: 1 }, limit);
    find('export app', ev, { accountId, appId, _id: { $gte: bound } }, { _id: 1 }, limit);
    find('export window', ev, { accountId, _id: { $gte: bound, $lt: `${bound.slice(0, 7)}9` } }, { _id: 1 }, limit);
    find('export subject', ev, { accountId, subject }, { _id: 1 }, limit);
    find('export target', ev, { accountId, target, _id: { $gt: bound } }, { _id: 1 }, limit);
    find('export page', ev, { $and: [{ accountId, appId }, { _id: { $gt: bound } }] }, { _id: 1 }, limit);
    count('export count', ev, { accountId, _id: { $gt: bound } });
    count('export count app', ev, { accountId, appId });
    // statistics: the newest settled event of an application, the counters, the current states
    find('latest', ev, { accountId, appId, part: { $exists: false } }, { _id: -1 }, 1, 0, { createdAt: 1 });
    find('actions', ev, { accountId, appId, _id: { $gte: bound, $lt: `${bound}z` } }, { _id: 1 }, limit, 0, { _id: 1, action: 1, part: 1 });
    aggregate('statistics states', cur, [
      { $match: { accountId, $or: [{ 'cur.appId': appId }, { cur: { $exists: false }, appId }] } },
      { $group: { _id: { target: '$target', action: { $ifNull: ['$cur.action', '$action'] } }, n: { $sum: 1 } } },
    ]);
    // newest before a bound of several states, grouped (one $or branch per state)
    const or = Array.from({ length: 1 + r.int(4) }, () => ({
      accountId,
      subject: r.pick(SUBJECTS),
      issuer: r.pick(ISSUERS),
      target: r.pick(TARGETS),
      scope: r.pick(SCOPES),
    }));
    aggregate('newest before', ev, [
      { $match: { $and: [or.length === 1 ? or[0]! : { $or: or }, { _id: { $lt: bound } }] } },
      { $sort: { _id: -1 } },
      { $group: { _id: { s: '$subject', i: '$issuer', t: '$target', c: '$scope' }, doc: { $first: '$$ROOT' } } },
    ]);
    // current states of a subject (states index), with and without targets
    find('current', cur, { subject, issuer, accountId, target }, undefined, 100);
    find('current targets', cur, { subject, issuer, accountId, target: { $in: [target, r.pick(TARGETS)] } }, undefined, 100);
    find('current all', cur, { subject, issuer, accountId }, undefined, 100);
    find('target states', cur, { accountId, target, _id: { $gt: `state${r.int(300)}` } }, { _id: 1 }, limit);
    find('null issuer', ev, { accountId, issuer: null }, { _id: 1 }, limit);
    find('missing target', ev, { accountId, target: { $exists: false } }, { _id: 1 });
    find('in accounts', ev, { accountId: { $in: [...ACCOUNTS] }, appId }, { _id: -1 }, limit);
    find(
      'or',
      ev,
      {
        $or: [
          { accountId, appId },
          { accountId, token: 'tok1' },
        ],
      },
      { _id: -1 },
      limit,
    );
    find('unsettled', ev, { _id: { $in: [bound, `${bound.slice(0, 13)}1`, 7] }, pub: { $exists: false } }, undefined);
    find('pub', ev, { pub: { $lte: new Date(1_700_000_002_000) } }, { _id: 1 }, limit);
    find('action sort', ev, { accountId, appId }, { action: 1 }, limit); // ties, natural order between them
    aggregate('stats', ev, [{ $match: { accountId, appId } }, { $group: { _id: '$target', n: { $sum: 1 } } }]);
  }
  // the consent log's sequencer and the outbox (sparse indexes): every key's values, due events
  for (const key of ['logq', 'pub', 'token']) out.push({ name: `distinct ${key}`, run: (db) => ev(db).distinct(key) });
  find('due', ev, { pub: { $lte: new Date(1_700_000_003_000) } }, undefined);
  count('pending', ev, { pub: { $exists: true } });
  find('oldest pending', ev, { pub: { $exists: true } }, { _id: 1 }, 1, 0, { createdAt: 1 });
  find('pending logged', ev, { logq: { $exists: 1 } }, undefined);
  find('log pending', ev, { logq: r.pick(ACCOUNTS) }, { _id: 1 }, 20);
  find('every event', ev, {}, undefined); // every document as stored, in natural order
  return out;
}

/**
 * The same data, operations and queries against an indexed server and an unchanged one, compared
 * result for result; with `restart`, both are then stopped and started again on their files (the
 * indexes rebuilt from the stored documents), compared, changed once more and compared again.
 */
async function equivalence(
  start: () => Promise<[Server, Server]>,
  restart?: (stopped: [Server, Server]) => Promise<[Server, Server]>,
  defaultSeed = 39,
): Promise<number> {
  let pair = await start();
  servers.push(...pair);
  let connected = await Promise.all(pair.map((s) => new MongoClient(s.url).connect()));
  clients.push(...connected);
  const both = async (f: (db: ReturnType<MongoClient['db']>) => Promise<unknown>) => {
    const [a, b] = await Promise.all([f(connected[0]!.db('idx')), f(connected[1]!.db('idx'))]);
    return [a, b] as const;
  };
  const seed = Number(process.env.INDEX_TEST_SEED ?? defaultSeed);
  const r = random(seed);
  // half the data before the indexes (built from the documents there), half after (kept on insert)
  const firstHalf = Array.from({ length: 1200 }, (_, i) => eventDoc(r, i));
  await both((db) =>
    db
      .collection<Doc>('events')
      .insertMany(
        firstHalf.map((d) => ({ ...d })),
        { ordered: false },
      )
      .catch(() => undefined),
  );
  for (const c of connected) await declareIndexes(c);
  const secondHalf = Array.from({ length: 1200 }, (_, i) => eventDoc(r, 1200 + i));
  await both((db) =>
    db
      .collection<Doc>('events')
      .insertMany(
        secondHalf.map((d) => ({ ...d })),
        { ordered: false },
      )
      .catch(() => undefined),
  );
  const states = Array.from({ length: 300 }, (_, i) => currentDoc(r, i));
  await both((db) => db.collection<Doc>('current').insertMany(states.map((d) => ({ ...d }))));

  let compared = 0;
  const compare = async () => {
    for (const q of queries(r)) {
      const [a, b] = await both(q.run);
      if (JSON.stringify(a) !== JSON.stringify(b))
        throw new Error(`seed ${seed}: ${q.name} differs:\nindexed ${JSON.stringify(a)}\nunchanged ${JSON.stringify(b)}`);
      compared++;
    }
  };
  await compare();

  /** Both servers' answers to the same write, which must be the same (counts, upserted id, or the error's message). */
  const same = async (name: string, f: (db: ReturnType<MongoClient['db']>) => Promise<unknown>) => {
    const [a, b] = await both((db) => f(db).catch((e: Error) => ({ error: e.message })));
    if (JSON.stringify(a) !== JSON.stringify(b))
      throw new Error(`seed ${seed}: ${name} differs:\nindexed ${JSON.stringify(a)}\nunchanged ${JSON.stringify(b)}`);
  };
  // the outbox relay's and the log sequencer's updates after each batch (store/mongo/outbox.ts, log-queue.ts):
  // updateMany of {_id: {$in: [k ids]}}, k up to a few hundred, with duplicates, absent ids and numbers among strings
  const allIds = [...firstHalf, ...secondHalf].map((d) => d._id);
  const idInUpdates = async (round: number) => {
    for (const k of [0, 1, 2, 9, 60, 400]) {
      const ids: Array<string | number> = Array.from({ length: k }, () => {
        const x = r.next();
        if (x < 0.1) return `absent${r.int(50)}`;
        if (x < 0.15) return r.int(80); // a number id, present now and then
        if (x < 0.18) return r.int(80) + 0.5;
        return r.pick(allIds);
      });
      if (k > 2) ids.push(ids[0]!, ids[1]!); // duplicates
      const filter = { _id: { $in: ids as never[] } };
      const [at, account, app] = [new Date(1_700_000_000_000 + r.int(5) * 1000), r.pick(ACCOUNTS), r.pick(APPS)];
      const run = (name: string, update: Document, options?: { upsert: boolean }, f: Filter<Doc> = filter) =>
        same(`${name} k=${k} round ${round}`, async (db) => {
          const res = await db.collection<Doc>('events').updateMany(f, update, options);
          return [res.matchedCount, res.modifiedCount, res.upsertedCount, res.upsertedId];
        });
      await run('outbox published', { $unset: { pub: '', claim: '', part: '' } }); // the sparse index's key unset
      await run('outbox retry', { $set: { pub: at } }, undefined, { ...filter, pub: { $exists: true } });
      await run('sequencer logged', { $unset: { logq: '' } });
      await run('claim', { $set: { claim: `c${round}`, logq: account }, $inc: { n: 1 } }); // $inc twice if a duplicate were updated twice
      await run('move', { $set: { appId: app } }); // an indexed key changed
      await run('no change', { $set: { accountId: account, claim: `c${round}` } }); // some documents unmodified
      await run('positional', { $set: { 'subject.$': 'x' } }); // no array matched by the query: refused
      // with other conditions beside the _id list: the event with an array subject (rounds 1-2) matched at its position (the only event without a token)
      await run('mixed', { $set: { appId: app } }, undefined, { ...filter, accountId: account });
      await run('mixed positional', { $set: { 'subject.$': 's2', marked: round } }, undefined, {
        _id: { $in: [...ids, 'arr'] as never[] },
        token: { $exists: false },
        subject: 's2',
      });
      await run('mixed array', { $set: { gpc: true } }, undefined, { _id: { $in: [...ids, 'arr'] as never[] }, subject: { $in: ['s1', 's3'] }, issuer: 'i1' });
      await run('conflict', { $set: { appId: app }, $unset: { appId: '' } });
      if (k > 0) await run('upsert', { $set: { upserted: round } }, { upsert: true }); // (k = 0 would insert a random ObjectId)
      await run('set id', { $set: { _id: 'other' } });
      await same(`updateOne k=${k} round ${round}`, async (db) => {
        const res = await db.collection<Doc>('events').updateOne(filter, { $set: { one: round } });
        return [res.matchedCount, res.modifiedCount];
      });
    }
  };

  const change = async (round: number) => {
    // updates that move documents between index entries, an upsert, deletes, and arrays on indexed keys
    // (every random value drawn before `both`: the two servers get the same operations)
    const subject = r.pick(SUBJECTS);
    const accountId = r.pick(ACCOUNTS);
    const [newSubject, newApp, deletedApp, stateApp, stateTarget] = [r.pick(SUBJECTS), r.pick(APPS), r.pick(APPS), r.pick(APPS), r.pick(TARGETS)];
    await both((db) => db.collection<Doc>('events').updateMany({ accountId, subject }, { $set: { subject: newSubject, appId: newApp } }));
    await both((db) => db.collection<Doc>('events').updateMany({ accountId, token: `tok${round}` }, { $unset: { target: '' } }));
    await both((db) => db.collection<Doc>('events').deleteMany({ accountId, appId: deletedApp, _id: { $lt: `0000${1050 + round * 20}` } }));
    await both((db) => db.collection<Doc>('events').deleteOne({ _id: `${String(1000 + round * 50).padStart(8, '0')}${String(round * 150).padStart(6, '0')}` }));
    const id = `state${r.int(320)}`;
    const appId = r.pick(APPS);
    await both((db) =>
      db
        .collection<Doc>('current')
        .updateOne(
          { _id: id as never },
          { $max: { cur: { id: `z${round}`, appId, action: true } }, $setOnInsert: { accountId, subject, issuer: 'i1', target: 't1', scope: 'email' } },
          { upsert: true },
        ),
    );
    await both((db) => db.collection<Doc>('current').deleteMany({ accountId, 'cur.appId': stateApp, target: stateTarget }));
    // the sequencer takes events off its queue; one event holds its key as null for a while (a distinct lists it)
    await both((db) => db.collection<Doc>('events').updateMany({ accountId, logq: { $exists: true }, appId: deletedApp }, { $unset: { logq: '' } }));
    if (round === 1) await both((db) => db.collection<Doc>('events').updateOne({ _id: '00001100000300' as never }, { $set: { pub: null, logq: null } }));
    if (round === 3) await both((db) => db.collection<Doc>('events').updateOne({ _id: '00001100000300' as never }, { $unset: { pub: '', logq: '' } }));
    if (round === 1)
      await both((db) =>
        db.collection<Doc>('events').insertOne({ _id: 'arr', accountId: 'a1', subject: ['s1', 's2'], issuer: 'i1', target: 't1', appId: 'app1' } as Doc),
      );
    await idInUpdates(round);
    if (round === 2)
      await both((db) => db.collection<Doc>('current').updateOne({ _id: 'state1' as never }, { $set: { accountId: 'a1', 'cur.appId': ['app1', 'app2'] } }));
    if (round === 3) {
      await both((db) => db.collection<Doc>('events').deleteOne({ _id: 'arr' as never }));
      await both((db) => db.collection<Doc>('current').updateOne({ _id: 'state1' as never }, { $set: { 'cur.appId': 'app1' } }));
    }
  };
  for (let round = 0; round < 4; round++) {
    await change(round);
    await compare();
  }
  if (restart) {
    // an array on an indexed key kept across the restart: the rebuilt index must know it is multikey
    await both((db) => db.collection<Doc>('current').updateOne({ _id: 'state2' as never }, { $set: { accountId: 'a2', 'cur.appId': ['app2', 'app3'] } }));
    await Promise.all(connected.map((c) => c.close()));
    await Promise.all(pair.map((s) => s.stop()));
    pair = await restart(pair);
    servers.push(...pair);
    connected = await Promise.all(pair.map((s) => new MongoClient(s.url).connect()));
    clients.push(...connected);
    await compare();
    await both((db) => db.collection<Doc>('current').updateOne({ _id: 'state2' as never }, { $set: { 'cur.appId': 'app3' } }));
    await change(4);
    await compare();
  }
  return compared;
}

test('the indexed local database answers every query shape as the unchanged mongo-java-server does, through inserts, updates and deletes', async () => {
  const start = async () =>
    (await Promise.all(
      (['accord', 'memory'] as const).map((backend) => startMongoJavaServer(dir, true, process.env, () => undefined, undefined, backend)),
    )) as [Server, Server];
  expect(await equivalence(start)).toBeGreaterThan(900);
});

test('the same with index leaves of four entries: every few writes split or merge a leaf, and a scan crosses many', async () => {
  // OrderedIndex keeps its entries in leaves of 64; a tiny leaf puts a leaf boundary inside nearly every range scanned
  const start = async () => {
    process.env.ACCORD_LOCAL_MONGO_INDEX_LEAF = '4';
    try {
      return (await Promise.all(
        (['accord', 'memory'] as const).map((backend) => startMongoJavaServer(dir, true, process.env, () => undefined, undefined, backend)),
      )) as [Server, Server];
    } finally {
      delete process.env.ACCORD_LOCAL_MONGO_INDEX_LEAF;
    }
  };
  expect(await equivalence(start, undefined, 7)).toBeGreaterThan(900);
});

test("npm start's H2 file, indexed, answers as the unchanged H2 backend does, and again after a restart (indexes rebuilt from the file)", async () => {
  const dirs = [join(dir, 'h2-accord'), join(dir, 'h2-unchanged')] as const;
  const ports: number[] = [];
  const lines: string[] = [];
  const start = async () =>
    (await Promise.all(
      (['accord', 'h2'] as const).map((backend, i) => startMongoJavaServer(dirs[i]!, false, process.env, (l) => lines.push(l), ports[i], backend)),
    )) as [Server, Server];
  const first = await start();
  for (const s of first) ports.push(Number(new URL(s.url).port));
  expect(await equivalence(async () => first, start)).toBeGreaterThan(1300);
  // the restarted indexed server rebuilt each collection's declared indexes, in one pass each
  const built = lines.filter((l) => l.includes('indexes of idx.'));
  const names = (l: string) =>
    l.replace(/^.*indexes of (\S+) built from \d+ documents in \d+ ms: (.*)$/, (_, c: string, n: string) => `${c}: ${n.split(', ').sort().join(', ')}`);
  expect(built.map(names).sort()).toEqual([
    'idx.current: app_states, states, target_states',
    'idx.events: app_latest, export, log_pending, search, search_scope, token, unpublished',
  ]);
});

test("a file of the earlier version (the unchanged H2 backend's form) opens in the indexed one: the same documents, the unique indexes kept, and again after a restart", async () => {
  const { Binary, Decimal128, Double, Int32, Long, ObjectId, Timestamp, BSONRegExp } = await import('mongodb');
  const fileDir = join(dir, 'h2-earlier');
  const lines: string[] = [];
  const open = async (backend: 'accord' | 'h2') => {
    const s = await startMongoJavaServer(fileDir, false, process.env, (l) => lines.push(l), undefined, backend);
    servers.push(s);
    const c = await new MongoClient(s.url).connect();
    clients.push(c);
    return { s, c, coll: c.db('old').collection<Doc>('things') };
  };
  // every BSON type the services store, and those BSON would not give back as the same Java class
  // (Decimal128, binary, timestamp, regex: kept in Java serialization, as an earlier file holds them)
  const doc = (i: number): Doc => ({
    _id: i % 5 === 0 ? i : `id${String(i).padStart(4, '0')}`,
    key: `k${i}`,
    n32: new Int32(i),
    n64: Long.fromNumber(2 ** 40 + i),
    d: new Double(i + 0.5),
    at: new Date(1_600_000_000_000 + i * 1000),
    flag: i % 2 === 0,
    nothing: null,
    nested: { a: [1, 'two', { three: i }], oid: new ObjectId(i.toString(16).padStart(24, '0')) },
    ...(i % 7 === 0
      ? {
          dec: Decimal128.fromString(`${i}.25`),
          bin: new Binary(Buffer.from([i % 256, 1, 2])),
          ts: new Timestamp({ t: i, i: 1 }),
          re: new BSONRegExp('^a', 'i'),
        }
      : {}),
  });
  const all = async (coll: Collection<Doc>) => JSON.stringify(await coll.find({}).toArray());
  const earlier = await open('h2');
  await earlier.coll.createIndex({ key: 1 }, { unique: true, name: 'key_unique' });
  await earlier.coll.createIndex({ 'nested.oid': 1 }, { name: 'by_oid' });
  await earlier.coll.insertMany(Array.from({ length: 400 }, (_, i) => doc(i)));
  await earlier.coll.updateOne({ _id: 'id0001' as never }, { $set: { key: 'k1-moved' } });
  const written = await all(earlier.coll);
  await earlier.c.close();
  await earlier.s.stop();

  let now = await open('accord');
  expect(await all(now.coll)).toBe(written);
  // the unique index, built again in this version's form, refuses what the earlier one refused
  await expect(now.coll.insertOne({ _id: 'dup' as never, key: 'k2' })).rejects.toThrow(/duplicate key/);
  await expect(now.coll.insertOne(doc(3))).rejects.toThrow(/duplicate key/);
  await now.coll.insertOne({ _id: 'fresh' as never, key: 'k1' }); // freed by the update above
  expect(await now.coll.find({ key: 'k1-moved' }).toArray()).toHaveLength(1);
  expect(await now.coll.countDocuments({ 'nested.oid': new ObjectId('00000000000000000000000a') })).toBe(1);
  await now.coll.updateMany({ _id: { $in: ['id0002', 'id0003'] as never[] } }, { $set: { later: new Date(1_700_000_000_000) }, $inc: { n32: 1 } });
  await now.coll.deleteOne({ _id: 'id0004' as never });
  const rewritten = await all(now.coll);
  await now.c.close();
  await now.s.stop();

  // opened again: this version's own form read back, the old index maps gone, the constraint kept
  now = await open('accord');
  expect(await all(now.coll)).toBe(rewritten);
  await expect(now.coll.insertOne({ _id: 'dup2' as never, key: 'k1' })).rejects.toThrow(/duplicate key/);
  expect(await now.coll.distinct('key', { _id: { $in: ['fresh', 'id0001'] as never[] } })).toEqual(['k1', 'k1-moved']);
  expect(lines.filter((l) => /exception|error/i.test(l))).toEqual([]);
});
