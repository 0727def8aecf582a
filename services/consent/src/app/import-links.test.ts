/**
 * Link lines of an import (docs/consent.md, Import and Linked identities): the export's lines with
 * `links=true` come back as links with their original times, once per key, under the link rules,
 * logged and counted like events; and an export page holds events and links by id.
 */
import { leafHash, linkLeaf } from '@accord/proofs';
import { accountErasureKey, erasedImportKey, pseudonym } from '../domain/erasure';
import { idTime } from '../domain/event-id';
import { linkJson, linkLeafHash } from '../domain/link';
import { memoryConsentStore } from '../store/memory/store';
import { Consents } from './consents';
import { Imports } from './imports';
import { Links } from './links';

const I = 'https://shop.example';
const T = 'https://shop.example/privacy';
const link = (o: Record<string, unknown>) =>
  JSON.stringify({ type: 'subject.linked', issuer: I, identity: 'dev-1', subject: 'ann', createdAt: '2020-01-01T00:00:00.000Z', ...o });
const event = (o: Record<string, unknown>) =>
  JSON.stringify({ subject: 'dev-1', issuer: I, target: T, action: true, createdAt: '2020-01-02T00:00:00.000Z', ...o });
/** A new import (NDJSON, account `acc`, application `app`) sent `texts` as its lines 1, 2, …: the job after them. */
const importOf = async (imports: Imports, texts: string[]) =>
  imports.lines(
    'acc',
    (await imports.start('acc', 'app', 'ndjson')).id,
    texts.map((text, i) => ({ number: i + 1, text })),
  );

const setup = () => {
  const store = memoryConsentStore();
  const published: string[] = [];
  const links = new Links(store.links, { stored: (l) => published.push(l.id) });
  let nudged = 0;
  const imports = new Imports(store, { ratePerSecond: 0 }, { nudge: () => nudged++ });
  imports.links = links;
  return { store, links, imports, published, nudged: () => nudged };
};

describe('an import’s link lines', () => {
  it('are stored with their original createdAt and importedAt, logged, never published, and resolve reads across identities', async () => {
    const { store, links, imports, published, nudged } = setup();
    const j = await importOf(imports, [
      event({}),
      link({ id: '0170000000000000000000000000aaaa', appId: 'old-app', importedAt: '2021-01-01T00:00:00.000Z' }),
      link({ identity: 'dev-2', createdAt: '2020-01-03T00:00:00.000Z', externalId: 'l-2' }),
    ]);
    expect(j).toMatchObject({ read: 3, stored: 3, duplicates: 0, refused: 0, errors: [], batchStored: 3 });
    expect(nudged()).toBe(1);
    expect(published).toEqual([]);
    const stored = await links.list('acc', { issuer: I, subject: 'ann', history: true });
    expect(stored.links.map((l) => [l.identity, l.subject, l.createdAt.toISOString(), l.appId])).toEqual([
      ['dev-2', 'ann', '2020-01-03T00:00:00.000Z', 'app'],
      ['dev-1', 'ann', '2020-01-01T00:00:00.000Z', 'app'],
    ]);
    for (const l of stored.links) {
      expect(idTime(l.id)).toEqual(l.createdAt);
      expect(l.importedAt).toBeInstanceOf(Date);
    }
    // each waits for its leaf, whose hash holds importedAt and is what the offline verifier rebuilds from the link as answered
    const pending = await store.links.logPending('acc', 10);
    expect(pending.links.map((p) => p.id).sort()).toEqual(stored.links.map((l) => l.id).sort());
    for (const l of stored.links) {
      expect(pending.links.find((p) => p.id === l.id)!.leafHash).toEqual(linkLeafHash(l));
      expect(leafHash(linkLeaf(linkJson(l))).equals(linkLeafHash(l))).toBe(true);
      expect(linkLeaf(linkJson(l)).toString()).toContain('"importedAt"');
    }
    // the event of dev-1 is ann's current state now
    expect((await links.group('acc', I, 'ann')).names).toEqual(['ann', 'dev-1', 'dev-2']);
  });

  it('count duplicates when the file is posted again, even where their rules would now refuse them', async () => {
    const { imports } = setup();
    // dev-1 linked to ann, unlinked, then ann linked to bob: replaying the first line against today's links would chain
    const file = [
      link({}),
      link({ subject: null, createdAt: '2020-01-02T00:00:00.000Z' }),
      link({ identity: 'ann', subject: 'bob', createdAt: '2020-01-03T00:00:00.000Z' }),
    ];
    expect(await importOf(imports, file)).toMatchObject({ stored: 3, duplicates: 0, refused: 0 });
    expect(await importOf(imports, file)).toMatchObject({ read: 3, stored: 0, duplicates: 3, refused: 0, batchStored: 0 });
  });

  it('lose their externalId with their subject’s erasure, and posting the file again still counts them as duplicates', async () => {
    const store = memoryConsentStore();
    const key = accountErasureKey('secret-of-the-installation-for-tests-only', 'acc');
    const links = new Links(store.links, { stored: () => undefined });
    const imports = new Imports(store, { ratePerSecond: 0, erasureKeyOf: () => key });
    imports.links = links;
    const file = [link({ externalId: 'crm-ann@example.com' }), link({ identity: 'dev-2', createdAt: '2020-01-03T00:00:00.000Z' })];
    expect(await importOf(imports, file)).toMatchObject({ stored: 2 });
    const keyOfLine = 'acc/x:crm-ann@example.com';
    expect(await store.links.importedKeys([keyOfLine])).toEqual(new Set([keyOfLine]));

    expect(await links.erase('acc', ['ann', 'dev-1', 'dev-2'], I, key, new Date())).toBe(2);
    // no key holds the externalId any more; its keyed hash stands in its place
    expect(await store.links.importedKeys([keyOfLine])).toEqual(new Set());
    expect(await store.links.importedKeys([erasedImportKey(key, 'acc', keyOfLine)])).toEqual(new Set([erasedImportKey(key, 'acc', keyOfLine)]));
    // the subject's export (names) never carries a key
    for (const l of await links.naming('acc', pseudonym(key, 'ann'))) expect(l).not.toHaveProperty('importKey');

    // the same file again: both lines are the erased links, never stored again in clear
    expect(await importOf(imports, file)).toMatchObject({ stored: 0, duplicates: 2, refused: 0 });
    expect(await links.naming('acc', 'ann')).toEqual([]);
  });

  it('are refused by line and field: bad names, a chain, a bad createdAt, erased links, an unknown type or field', async () => {
    const { imports } = setup();
    const j = await importOf(imports, [
      link({}),
      link({ identity: 'ann', subject: 'carl' }),
      link({ identity: 'dev-3', subject: 'dev-1' }),
      link({ identity: '' }),
      link({ subject: 'dev-1' }),
      link({ createdAt: '2999-01-01T00:00:00Z', identity: 'dev-4' }),
      link({ identity: 'erased:x', erasedAt: '2021-01-01T00:00:00.000Z' }),
      JSON.stringify({ type: 'consent', subject: 'x' }),
      link({ colour: 'red' }),
      link({ subject: undefined, identity: 'dev-5' }),
    ]);
    expect(j).toMatchObject({ read: 10, stored: 1, refused: 9 });
    expect(j.errors.map((e) => [e.line, e.field])).toEqual([
      [2, 'identity'],
      [3, 'subject'],
      [4, 'identity'],
      [5, 'subject'],
      [6, 'createdAt'],
      [7, 'erasedAt'],
      [8, 'type'],
      [9, 'colour'],
      [10, 'subject'],
    ]);
  });

  it('are refused (field type) by an Imports without links', async () => {
    const store = memoryConsentStore();
    const imports = new Imports(store, { ratePerSecond: 0 });
    expect(await importOf(imports, [link({})])).toMatchObject({ stored: 0, refused: 1, errors: [{ line: 1, field: 'type' }] });
  });
});

describe('an export page with links', () => {
  it('holds the first `limit` events and links by id; the cursor resumes both; filters apply to links; not with target', async () => {
    const { store, imports } = setup();
    const specs = { lookup: async () => undefined, current: async () => undefined, asOf: async () => undefined };
    const consents = new Consents(store, { publishStored: () => undefined }, { keys: [], settings: {} as never, specs }, { warn: () => undefined });
    const texts = [
      event({ createdAt: '2020-01-01T00:00:00.000Z' }),
      link({ createdAt: '2020-01-02T00:00:00.000Z' }),
      event({ createdAt: '2020-01-03T00:00:00.000Z', subject: 'zed' }),
      link({ identity: 'dev-2', createdAt: '2020-01-04T00:00:00.000Z' }),
      link({ identity: 'dev-9', subject: 'zoe', createdAt: '2020-01-05T00:00:00.000Z' }),
    ];
    expect(await importOf(imports, texts)).toMatchObject({ stored: 5 });
    const days = (p: { events: Array<{ createdAt: Date }>; links?: Array<{ createdAt: Date }> }) =>
      [...p.events, ...(p.links ?? [])].map((x) => x.createdAt.toISOString().slice(8, 10)).sort();
    const p1 = await consents.exportPage({ accountId: 'acc', links: true, limit: 3 });
    expect(days(p1)).toEqual(['01', '02', '03']);
    expect(p1.next).toBe(p1.events[1]!.id);
    const p2 = await consents.exportPage({ accountId: 'acc', links: true, limit: 3, cursor: p1.next! });
    expect(days(p2)).toEqual(['04', '05']);
    expect(p2.next).toBeUndefined();
    // without links: the events only, as before
    expect(days(await consents.exportPage({ accountId: 'acc', limit: 3 }))).toEqual(['01', '03']);
    // a subject's export: its events and the links naming it; a time window
    expect(days(await consents.exportPage({ accountId: 'acc', links: true, subject: 'ann' }))).toEqual(['02', '04']);
    expect(days(await consents.exportPage({ accountId: 'acc', links: true, subject: 'dev-1' }))).toEqual(['01', '02']);
    expect(
      days(await consents.exportPage({ accountId: 'acc', links: true, since: new Date('2020-01-02T00:00:00Z'), until: new Date('2020-01-05T00:00:00Z') })),
    ).toEqual(['02', '03', '04']);
    await expect(consents.exportPage({ accountId: 'acc', links: true, target: T })).rejects.toMatchObject({ fields: [{ field: 'links' }] });
  });
});
