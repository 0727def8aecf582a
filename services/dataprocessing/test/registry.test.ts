import { status } from '@grpc/grpc-js';
import { expectGrpcError, fieldsOf, groupFields, specFields, startService, type RunningService } from '@accord/testkit';

/** A proto map field's value (ts-proto useMapType): maps travel as Maps. */
const map = <V>(o: Record<string, V>) => new Map(Object.entries(o));

let svc: RunningService<'dataprocessing'>;
const A = { accountId: 'acc-a', appId: 'app-a1' };
const A2 = { accountId: 'acc-a', appId: 'app-a2' };
const B = { accountId: 'acc-b', appId: 'app-b1' };

beforeAll(async () => {
  svc = await startService('dataprocessing', 'dpregistry');
});
afterAll(async () => svc?.stop());

const newGroup = (who = A, fields: { name?: string; description?: string; purpose?: string } = groupFields()) => svc.client.createGroup({ ...who, fields });
const newSpec = async (who = A, fields: Record<string, unknown> = {}, groupId?: string, texts: Array<{ value: string; language: string }> = []) =>
  svc.client.createSpec({ ...who, groupId: groupId ?? (await newGroup(who)).id, fields: specFields(fields), texts });

describe('groups', () => {
  it('are created with an id, the creating application and timestamps, and read back', async () => {
    const g = await newGroup(A, { description: 'only a description' });
    expect(g.id).toMatch(/^[0-9a-f]{24}$/);
    expect(g).toMatchObject({ name: '', description: 'only a description', purpose: '', appId: A.appId });
    expect(g.createdAt).toBeInstanceOf(Date);
    expect(g.updatedAt!.getTime()).toBe(g.createdAt!.getTime());
    expect(await svc.client.getGroup({ accountId: A.accountId, id: g.id })).toEqual(g);
  });

  it('list in creation order, page by page with a cursor', async () => {
    const who = { accountId: 'acc-paging', appId: 'app' };
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await newGroup(who, { name: `g${i}` })).id);
    const p1 = await svc.client.listGroups({ accountId: who.accountId, page: { limit: 2, cursor: '' } });
    expect(p1.groups.map((g) => g.id)).toEqual(ids.slice(0, 2));
    expect(p1.nextCursor).not.toBe('');
    const p2 = await svc.client.listGroups({ accountId: who.accountId, page: { limit: 2, cursor: p1.nextCursor } });
    const p3 = await svc.client.listGroups({ accountId: who.accountId, page: { limit: 2, cursor: p2.nextCursor } });
    expect([...p2.groups, ...p3.groups].map((g) => g.id)).toEqual(ids.slice(2));
    expect(p3.nextCursor).toBe('');
    const bad = await expectGrpcError(svc.client.listGroups({ accountId: who.accountId, page: { limit: 500, cursor: 'nope' } }), status.INVALID_ARGUMENT);
    expect(fieldsOf(bad)).toEqual(['limit']);
  });

  it('update only the fields in the mask and move updatedAt', async () => {
    const g = await newGroup();
    const u = await svc.client.updateGroup({ ...A, id: g.id, fields: { name: 'Renamed' }, updateMask: ['name', 'purpose'] });
    expect(u).toMatchObject({ name: 'Renamed', description: 'Our news', purpose: '' });
    expect(u.updatedAt!.getTime()).toBeGreaterThanOrEqual(g.updatedAt!.getTime());
    const err = await expectGrpcError(
      svc.client.updateGroup({ ...A, id: g.id, fields: { name: 'x'.repeat(300) }, updateMask: ['name'] }),
      status.INVALID_ARGUMENT,
    );
    expect(fieldsOf(err)).toEqual(['/name']);
  });

  it('deleted disappear from reads and lists, and a second delete is NOT_FOUND', async () => {
    const who = { accountId: 'acc-gdel', appId: 'app' };
    const g = await newGroup(who);
    await svc.client.deleteGroup({ ...who, id: g.id });
    await expectGrpcError(svc.client.getGroup({ accountId: who.accountId, id: g.id }), status.NOT_FOUND);
    expect((await svc.client.listGroups({ accountId: who.accountId })).groups).toEqual([]);
    await expectGrpcError(svc.client.deleteGroup({ ...who, id: g.id }), status.NOT_FOUND);
  });

  it('stay deleted when an update races with the deletion', async () => {
    const who = { accountId: 'acc-grace', appId: 'app' };
    for (let i = 0; i < 5; i++) {
      const g = await newGroup(who);
      await Promise.allSettled([
        svc.client.updateGroup({ ...who, id: g.id, fields: { name: `n${i}` }, updateMask: ['name'] }),
        svc.client.deleteGroup({ ...who, id: g.id }),
        svc.client.updateGroup({ ...who, id: g.id, fields: { description: `d${i}` }, updateMask: ['description'] }),
      ]);
      await expectGrpcError(svc.client.getGroup({ accountId: who.accountId, id: g.id }), status.NOT_FOUND);
    }
    expect((await svc.client.listGroups({ accountId: who.accountId })).groups).toEqual([]);
  });

  it('of another account are NOT_FOUND for every operation and never listed', async () => {
    const g = await newGroup(A);
    await expectGrpcError(svc.client.getGroup({ accountId: B.accountId, id: g.id }), status.NOT_FOUND);
    await expectGrpcError(svc.client.updateGroup({ ...B, id: g.id, fields: { name: 'x' }, updateMask: ['name'] }), status.NOT_FOUND);
    await expectGrpcError(svc.client.deleteGroup({ ...B, id: g.id }), status.NOT_FOUND);
    await expectGrpcError(svc.client.createSpec({ ...B, groupId: g.id, fields: { data: 'd', purpose: 'p', action: 'use' }, texts: [] }), status.NOT_FOUND);
    await expectGrpcError(svc.client.listSpecs({ accountId: B.accountId, groupId: g.id }), status.NOT_FOUND);
    await expectGrpcError(svc.client.getGroupPolicy({ accountId: B.accountId, groupId: g.id, language: '', textType: '' }), status.NOT_FOUND);
    expect((await svc.client.listGroups({ accountId: B.accountId })).groups.map((x) => x.id)).not.toContain(g.id);
    expect((await svc.client.getGroup({ accountId: A.accountId, id: g.id })).id).toBe(g.id);
  });

  it('require the caller’s account and application', async () => {
    const err = await expectGrpcError(svc.client.createGroup({ accountId: '', appId: '', fields: {} }), status.INVALID_ARGUMENT);
    expect(fieldsOf(err)).toEqual(['accountId', 'appId']);
  });
});

describe('specifications', () => {
  it('are created with the documented defaults, version 1 and their consent target URL', async () => {
    const g = await newGroup();
    const s = await newSpec(A, {}, g.id);
    expect(s).toMatchObject({
      groupId: g.id,
      ...specFields(),
      sensitive: false,
      consentTarget: true,
      location: 'EU',
      legalBasis: '',
      externalHref: '',
      version: 1,
      appId: A.appId,
      archived: false,
      texts: [],
    });
    expect(s.duration).toBeUndefined();
    expect(s.target).toBe(`${svc.config.ACCORD_BASE_URL}/dataprocessing/v0/dpspecs/${s.id}`);
    expect(await svc.client.getSpec({ accountId: A.accountId, id: s.id })).toEqual(s);
  });

  it('can be created with texts, which get integer ids', async () => {
    const g = await newGroup();
    const s = await svc.client.createSpec({
      ...A,
      groupId: g.id,
      fields: {
        data: 'd',
        purpose: 'p',
        action: 'store',
        duration: 30,
        legalBasis: 'CONTRACT',
        externalHref: 'https://example.com/p',
        sensitive: true,
        location: 'DE',
      },
      texts: [
        { value: 'Hello', language: 'en' },
        { value: 'Hallo', language: 'de', type: 'short' },
      ],
    });
    expect(s).toMatchObject({ duration: 30, legalBasis: 'CONTRACT', externalHref: 'https://example.com/p', sensitive: true, location: 'DE' });
    expect(s.texts.map((t) => [t.id, t.language, t.type])).toEqual([
      ['1', 'en', 'default'],
      ['2', 'de', 'short'],
    ]);
  });

  it('refuse bad input naming every field at fault', async () => {
    const g = await newGroup();
    const err = await expectGrpcError(
      svc.client.createSpec({
        ...A,
        groupId: g.id,
        fields: { data: '', action: 'sell', duration: 0, legalBasis: 'MAYBE', externalHref: 'not a url' },
        texts: [{ value: 'x', language: 'xx' }],
      }),
      status.INVALID_ARGUMENT,
    );
    expect(fieldsOf(err)).toEqual(['/data', '/purpose', '/action', '/duration', '/legalBasis', '/externalHref']);
    const textErr = await expectGrpcError(
      newSpec(A, {}, g.id, [
        { value: 'x', language: 'en' },
        { value: 'y', language: 'xx' },
      ]),
      status.INVALID_ARGUMENT,
    );
    expect(fieldsOf(textErr)).toEqual(['/texts/1/language']);
    expect((await svc.client.listSpecs({ accountId: A.accountId, groupId: g.id })).specs).toEqual([]);
  });

  it('are listed per group, oldest first, without other groups’ specifications', async () => {
    const g = await newGroup();
    const other = await newGroup();
    const s1 = await newSpec(A, {}, g.id);
    const s2 = await newSpec(A, { action: 'store' }, g.id);
    await newSpec(A, {}, other.id);
    expect((await svc.client.listSpecs({ accountId: A.accountId, groupId: g.id })).specs.map((s) => s.id)).toEqual([s1.id, s2.id]);
  });

  it('update (patch or replace) and refuse an unknown group or spec', async () => {
    const s = await newSpec(A, { duration: 10, sensitive: true });
    const patched = await svc.client.updateSpec({ ...A2, id: s.id, fields: { purpose: 'new purpose' }, updateMask: ['purpose'] });
    expect(patched).toMatchObject({ purpose: 'new purpose', duration: 10, sensitive: true, version: 2, appId: A2.appId });
    const replaced = await svc.client.updateSpec({
      ...A,
      id: s.id,
      fields: { data: 'phone', purpose: 'calls', action: 'use' },
      updateMask: ['data', 'purpose', 'action', 'sensitive', 'consentTarget', 'location', 'duration', 'legalBasis', 'externalHref'],
    });
    expect(replaced).toMatchObject({ data: 'phone', purpose: 'calls', action: 'use', sensitive: false, consentTarget: true, location: 'EU', version: 3 });
    expect(replaced.duration).toBeUndefined();
    await expectGrpcError(svc.client.updateSpec({ ...A, id: 'f'.repeat(24), fields: {}, updateMask: [] }), status.NOT_FOUND);
    await expectGrpcError(svc.client.updateSpec({ ...B, id: s.id, fields: { purpose: 'x' }, updateMask: ['purpose'] }), status.NOT_FOUND);
    await expectGrpcError(
      svc.client.createSpec({ ...A, groupId: 'f'.repeat(24), fields: { data: 'd', purpose: 'p', action: 'use' }, texts: [] }),
      status.NOT_FOUND,
    );
  });

  it('record the latest material version in reconsentSince: field changes that matter, or a change the editor marks; not text edits', async () => {
    const s = await newSpec(A, { duration: 10 });
    expect(s).toMatchObject({ version: 1, reconsentSince: 1 });
    // a text added and edited, a link changed: new versions, not material
    const t = await svc.client.createText({ ...A, specId: s.id, fields: { value: 'We send news', language: 'en' } });
    await svc.client.updateText({ ...A, specId: s.id, textId: String(t.id), fields: { value: 'We send weekly news' }, updateMask: ['value'] });
    const linked = await svc.client.updateSpec({ ...A, id: s.id, fields: { externalHref: 'https://example.com/p' }, updateMask: ['externalHref'] });
    expect(linked).toMatchObject({ version: 4, reconsentSince: 1 });
    // the purpose changes: material
    const material = await svc.client.updateSpec({ ...A, id: s.id, fields: { purpose: 'sell to partners' }, updateMask: ['purpose'] });
    expect(material).toMatchObject({ version: 5, reconsentSince: 5 });
    // the editor marks the text edits material with nothing else changed: a new version all the same
    const marked = await svc.client.updateSpec({ ...A, id: s.id, fields: {}, updateMask: [], requiresReconsent: true });
    expect(marked).toMatchObject({ version: 6, reconsentSince: 6 });
    // unmarked, the same empty change makes no version
    expect(await svc.client.updateSpec({ ...A, id: s.id, fields: {}, updateMask: [] })).toMatchObject({ version: 6, reconsentSince: 6 });
    // kept with each version, and given to the consent service
    const v4 = await svc.client.getSpecVersion({ accountId: A.accountId, specId: s.id, version: 4 });
    expect(v4.spec).toMatchObject({ version: 4, reconsentSince: 1 });
    expect(await svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id })).toMatchObject({ version: 6, reconsentSince: 6 });
    expect(await svc.client.getSpec({ accountId: A.accountId, id: s.id })).toMatchObject({ version: 6, reconsentSince: 6 });
  });

  it('carry regimes: the default opt-in everywhere, normalised when set, a change of them material and kept with each version', async () => {
    const s = await newSpec(A);
    const optIn = { model: 'opt-in', gpc: 'ignore' };
    expect(s.regimes).toEqual(map({ '*': optIn }));
    const ca = { model: 'opt-out', gpc: 'opt-out' };
    const set = await svc.client.updateSpec({
      ...A,
      id: s.id,
      fields: { regimes: { byJurisdiction: map({ 'us-ca': { model: 'opt-out', gpc: 'opt-out' } }) } },
      updateMask: ['regimes'],
    });
    expect(set).toMatchObject({ version: 2, reconsentSince: 2, regimes: map({ '*': optIn, 'US-CA': ca }) });
    // the same regimes again, written otherwise (`*` spelled out, upper case): no new version
    const same = await svc.client.updateSpec({
      ...A,
      id: s.id,
      fields: { regimes: { byJurisdiction: map({ '*': { model: 'opt-in', gpc: '' }, 'US-CA': ca }) } },
      updateMask: ['regimes'],
    });
    expect(same).toMatchObject({ version: 2 });
    // another field changed: the regimes stay as they are
    expect(await svc.client.updateSpec({ ...A, id: s.id, fields: { externalHref: 'https://example.com/p' }, updateMask: ['externalHref'] })).toMatchObject({
      version: 3,
      reconsentSince: 2,
      regimes: map({ '*': optIn, 'US-CA': ca }),
    });
    // named in the mask without a value: back to the default, a material change
    expect(await svc.client.updateSpec({ ...A, id: s.id, fields: {}, updateMask: ['regimes'] })).toMatchObject({
      version: 4,
      reconsentSince: 4,
      regimes: map({ '*': optIn }),
    });
    expect((await svc.client.getSpecVersion({ accountId: A.accountId, specId: s.id, version: 2 })).spec!.regimes).toEqual(map({ '*': optIn, 'US-CA': ca }));
    expect((await svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id, version: 3 })).regimes).toEqual(map({ '*': optIn, 'US-CA': ca }));
  });

  it('refuse bad regimes, naming each', async () => {
    const g = await newGroup(A);
    const err = await expectGrpcError(
      svc.client.createSpec({
        ...A,
        groupId: g.id,
        fields: specFields({
          regimes: { byJurisdiction: map({ XX: { model: 'opt-in', gpc: '' }, FR: { model: 'maybe', gpc: '' }, DE: { model: 'opt-in', gpc: 'never' } }) },
        }),
        texts: [],
      }),
      status.INVALID_ARGUMENT,
    );
    expect(fieldsOf(err).sort()).toEqual(['/regimes/DE/gpc', '/regimes/FR/model', '/regimes/XX']);
  });

  it('signal each material change to the consent service until it acknowledges that version (text edits signal nothing; a later material version survives an older ack)', async () => {
    const pendingOf = async (id: string) => (await svc.clientAs('consent').listPendingRenewals({ limit: 1000 })).renewals.filter((r) => r.specId === id);
    const s = await newSpec(A);
    expect(await pendingOf(s.id)).toEqual([]);
    await svc.client.updateSpec({ ...A, id: s.id, fields: { externalHref: 'https://example.com/p' }, updateMask: ['externalHref'] });
    await svc.client.createText({ ...A, specId: s.id, fields: { value: 'We send news', language: 'en' } });
    expect(await pendingOf(s.id)).toEqual([]);
    await svc.client.updateSpec({ ...A, id: s.id, fields: { purpose: 'sell to partners' }, updateMask: ['purpose'] });
    expect(await pendingOf(s.id)).toEqual([
      { accountId: A.accountId, specId: s.id, version: 4, target: expect.stringMatching(new RegExp(`/dataprocessing/v0/dpspecs/${s.id}$`)) },
    ]);
    // a text edit after it keeps the signal of version 4
    await svc.client.createText({ ...A, specId: s.id, fields: { value: 'Wir senden News', language: 'de' } });
    expect((await pendingOf(s.id)).map((r) => r.version)).toEqual([4]);
    // another material change before the ack: the older ack leaves the newer signal
    await svc.client.updateSpec({ ...A, id: s.id, fields: {}, updateMask: [], requiresReconsent: true });
    await svc.clientAs('consent').ackRenewal({ specId: s.id, version: 4 });
    expect((await pendingOf(s.id)).map((r) => r.version)).toEqual([6]);
    await svc.clientAs('consent').ackRenewal({ specId: s.id, version: 6 });
    expect(await pendingOf(s.id)).toEqual([]);
  });

  it('honour an expected version (optimistic concurrency for clients)', async () => {
    const s = await newSpec();
    await expectGrpcError(
      svc.client.updateSpec({ ...A, id: s.id, fields: { purpose: 'x' }, updateMask: ['purpose'], expectedVersion: 7 }),
      status.FAILED_PRECONDITION,
    );
    expect((await svc.client.updateSpec({ ...A, id: s.id, fields: { purpose: 'x' }, updateMask: ['purpose'], expectedVersion: 1 })).version).toBe(2);
  });

  it('of another account are NOT_FOUND for every operation', async () => {
    const s = await svc.client.createSpec({
      ...A,
      groupId: (await newGroup()).id,
      fields: { data: 'd', purpose: 'p', action: 'use' },
      texts: [{ value: 'Hi', language: 'en' }],
    });
    const b = { accountId: B.accountId };
    await expectGrpcError(svc.client.getSpec({ ...b, id: s.id }), status.NOT_FOUND);
    await expectGrpcError(svc.client.deleteSpec({ ...B, id: s.id }), status.NOT_FOUND);
    await expectGrpcError(svc.client.listSpecVersions({ ...b, specId: s.id }), status.NOT_FOUND);
    await expectGrpcError(svc.client.getSpecVersion({ ...b, specId: s.id, version: 1 }), status.NOT_FOUND);
    await expectGrpcError(svc.client.listTexts({ ...b, specId: s.id }), status.NOT_FOUND);
    await expectGrpcError(svc.client.getText({ ...b, specId: s.id, textId: '1' }), status.NOT_FOUND);
    await expectGrpcError(svc.client.createText({ ...B, specId: s.id, fields: { value: 'x', language: 'fr' } }), status.NOT_FOUND);
    await expectGrpcError(svc.client.updateText({ ...B, specId: s.id, textId: '1', fields: { value: 'x' }, updateMask: ['value'] }), status.NOT_FOUND);
    await expectGrpcError(svc.client.deleteText({ ...B, specId: s.id, textId: '1' }), status.NOT_FOUND);
    await expectGrpcError(svc.client.getSpecForConsent({ ...b, specId: s.id }), status.NOT_FOUND);
    await expectGrpcError(svc.client.resolveTarget({ ...b, target: s.target }), status.NOT_FOUND);
    expect((await svc.client.getSpec({ accountId: A.accountId, id: s.id })).texts).toHaveLength(1);
  });
});

describe('versions', () => {
  it('keep every previous state, newest first, with when and by which application it was made', async () => {
    const s = await newSpec(A);
    await svc.client.updateSpec({ ...A2, id: s.id, fields: { purpose: 'v2' }, updateMask: ['purpose'] });
    await svc.client.updateSpec({ ...A, id: s.id, fields: { purpose: 'v3' }, updateMask: ['purpose'] });
    const { versions } = await svc.client.listSpecVersions({ accountId: A.accountId, specId: s.id });
    expect(versions.map((v) => [v.version, v.spec!.purpose, v.appId, v.current])).toEqual([
      [2, 'v2', A2.appId, false],
      [1, 'send news', A.appId, false],
    ]);
    expect(versions[1]!.createdAt).toEqual(s.createdAt);
    const v1 = await svc.client.getSpecVersion({ accountId: A.accountId, specId: s.id, version: 1 });
    expect(v1.spec).toMatchObject({ id: s.id, purpose: 'send news', version: 1, target: s.target });
    const current = await svc.client.getSpecVersion({ accountId: A.accountId, specId: s.id, version: 3 });
    expect(current).toMatchObject({ current: true, version: 3, appId: A.appId });
    await expectGrpcError(svc.client.getSpecVersion({ accountId: A.accountId, specId: s.id, version: 4 }), status.NOT_FOUND);
    await expectGrpcError(svc.client.getSpecVersion({ accountId: A.accountId, specId: s.id, version: 0 }), status.NOT_FOUND);
  });

  it('are made by text changes too, and not by a change that changes nothing', async () => {
    const s = await newSpec(A);
    const t = await svc.client.createText({ ...A, specId: s.id, fields: { value: 'Hello', language: 'en' } });
    await svc.client.updateText({ ...A, specId: s.id, textId: t.id, fields: { value: 'Hello!' }, updateMask: ['value'] });
    await svc.client.deleteText({ ...A, specId: s.id, textId: t.id });
    const same = await svc.client.updateSpec({ ...A, id: s.id, fields: { purpose: 'send news' }, updateMask: ['purpose'] });
    expect(same.version).toBe(4);
    const { versions } = await svc.client.listSpecVersions({ accountId: A.accountId, specId: s.id });
    expect(versions.map((v) => [v.version, v.spec!.texts.map((x) => x.value)])).toEqual([
      [3, ['Hello!']],
      [2, ['Hello']],
      [1, []],
    ]);
  });

  it('101 updates keep exactly 100 previous versions, dropping the oldest', async () => {
    const s = await newSpec(A, { purpose: 'p0' });
    for (let i = 1; i <= 101; i++) await svc.client.updateSpec({ ...A, id: s.id, fields: { purpose: `p${i}` }, updateMask: ['purpose'] });
    const { versions } = await svc.client.listSpecVersions({ accountId: A.accountId, specId: s.id });
    expect(versions).toHaveLength(100);
    expect(versions[0]!.version).toBe(101);
    expect(versions[0]!.spec!.purpose).toBe('p100');
    expect(versions[99]!.version).toBe(2);
    expect(versions[99]!.spec!.purpose).toBe('p1');
    await expectGrpcError(svc.client.getSpecVersion({ accountId: A.accountId, specId: s.id, version: 1 }), status.NOT_FOUND);
    expect((await svc.client.getSpec({ accountId: A.accountId, id: s.id })).version).toBe(102);
  }, 120_000);

  it('concurrent updates each make their own version: none lost, none interleaved', async () => {
    const s = await newSpec(A);
    const n = 12;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => svc.client.updateSpec({ ...A, id: s.id, fields: { purpose: `c${i}` }, updateMask: ['purpose'] })),
    );
    expect(new Set(results.map((r) => r.version)).size).toBe(n);
    const final = await svc.client.getSpec({ accountId: A.accountId, id: s.id });
    expect(final.version).toBe(n + 1);
    const { versions } = await svc.client.listSpecVersions({ accountId: A.accountId, specId: s.id });
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: n }, (_, i) => n - i));
    // each update's result is the state that the next version recorded as previous
    for (const r of results) {
      const recorded = r.version === n + 1 ? final : versions.find((v) => v.version === r.version)!.spec!;
      expect(recorded.purpose).toBe(r.purpose);
    }
    const purposes = [...versions.slice(0, n - 1).map((v) => v.spec!.purpose), final.purpose];
    expect(new Set(purposes).size).toBe(n);
  }, 60_000);
});

describe('deletion keeps consent targets explainable', () => {
  it('a deleted specification leaves lists, stays readable as archived with its versions, and cannot change', async () => {
    const g = await newGroup();
    const s = await newSpec(A, {}, g.id);
    await svc.client.updateSpec({ ...A, id: s.id, fields: { purpose: 'v2' }, updateMask: ['purpose'] });
    await svc.client.deleteSpec({ ...A, id: s.id });
    expect((await svc.client.listSpecs({ accountId: A.accountId, groupId: g.id })).specs).toEqual([]);
    const got = await svc.client.getSpec({ accountId: A.accountId, id: s.id });
    expect(got.archived).toBe(true);
    expect(got.deletedAt).toBeInstanceOf(Date);
    expect(got).toMatchObject({ purpose: 'v2', version: 3 });
    // the deletion is itself a version; the states consent events may point at stay readable
    const { versions } = await svc.client.listSpecVersions({ accountId: A.accountId, specId: s.id });
    expect(versions.map((v) => [v.version, v.spec!.purpose])).toEqual([
      [2, 'v2'],
      [1, 'send news'],
    ]);
    const forConsent = await svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id });
    expect(forConsent).toMatchObject({ archived: true, purpose: 'v2', version: 3, groupName: 'Newsletter' });
    await expectGrpcError(svc.client.updateSpec({ ...A, id: s.id, fields: { purpose: 'x' }, updateMask: ['purpose'] }), status.NOT_FOUND);
    await expectGrpcError(svc.client.createText({ ...A, specId: s.id, fields: { value: 'x', language: 'en' } }), status.NOT_FOUND);
    await expectGrpcError(svc.client.deleteSpec({ ...A, id: s.id }), status.NOT_FOUND);
  });

  it('deleting a group archives its specifications, which stay explainable with the group name', async () => {
    const g = await newGroup(A, { name: 'Gone', purpose: 'ads' });
    const s = await newSpec(A, {}, g.id);
    await svc.client.deleteGroup({ ...A, id: g.id });
    expect((await svc.client.getSpec({ accountId: A.accountId, id: s.id })).archived).toBe(true);
    expect(await svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id })).toMatchObject({
      archived: true,
      groupName: 'Gone',
      groupPurpose: 'ads',
    });
  });
});

describe('texts', () => {
  it('are created, listed, read, updated and deleted with integer ids', async () => {
    const s = await newSpec();
    const en = await svc.client.createText({ ...A, specId: s.id, fields: { value: 'Hello', language: 'EN' } });
    const de = await svc.client.createText({ ...A, specId: s.id, fields: { value: 'Hallo', language: 'de', type: 'children' } });
    expect([en.id, en.language, en.type, de.id, de.type]).toEqual(['1', 'en', 'default', '2', 'children']);
    expect((await svc.client.listTexts({ accountId: A.accountId, specId: s.id })).texts.map((t) => t.value)).toEqual(['Hello', 'Hallo']);
    expect(await svc.client.getText({ accountId: A.accountId, specId: s.id, textId: '2' })).toEqual(de);
    const u = await svc.client.updateText({ ...A, specId: s.id, textId: '2', fields: { value: 'Hallo Kinder' }, updateMask: ['value'] });
    expect(u).toMatchObject({ id: '2', value: 'Hallo Kinder', language: 'de', type: 'children' });
    await svc.client.deleteText({ ...A, specId: s.id, textId: '1' });
    await expectGrpcError(svc.client.getText({ accountId: A.accountId, specId: s.id, textId: '1' }), status.NOT_FOUND);
    await expectGrpcError(svc.client.getText({ accountId: A.accountId, specId: s.id, textId: 'abc' }), status.NOT_FOUND);
    const again = await svc.client.createText({ ...A, specId: s.id, fields: { value: 'Hi', language: 'en' } });
    expect(again.id).toBe('3');
  });

  it('created concurrently are all kept, each with its own id and version', async () => {
    const s = await newSpec();
    const langs = ['en', 'de', 'fr', 'it', 'es', 'nl', 'pl', 'sv'];
    const created = await Promise.all(langs.map((language) => svc.client.createText({ ...A, specId: s.id, fields: { value: `text ${language}`, language } })));
    expect(new Set(created.map((t) => t.id)).size).toBe(langs.length);
    const final = await svc.client.getSpec({ accountId: A.accountId, id: s.id });
    expect(final.version).toBe(1 + langs.length);
    expect(final.texts.map((t) => t.language).sort()).toEqual([...langs].sort());
  }, 60_000);

  it('refuse a second text of the same language and type, and a language outside ISO 639-1', async () => {
    const s = await newSpec();
    await svc.client.createText({ ...A, specId: s.id, fields: { value: 'Hello', language: 'en' } });
    await expectGrpcError(svc.client.createText({ ...A, specId: s.id, fields: { value: 'Hi', language: 'en' } }), status.ALREADY_EXISTS);
    const err = await expectGrpcError(
      svc.client.createText({ ...A, specId: s.id, fields: { value: '', language: 'qq', type: 'poem' } }),
      status.INVALID_ARGUMENT,
    );
    expect(fieldsOf(err)).toEqual(['/value', '/language', '/type']);
  });
});

describe('consent targets', () => {
  it('GetSpecForConsent gives what a receipt needs; unknown ids are NOT_FOUND', async () => {
    const g = await newGroup(A, { name: 'Shop', purpose: 'sales' });
    const s = await svc.client.createSpec({
      ...A,
      groupId: g.id,
      fields: { data: 'address', purpose: 'delivery', action: 'share', legalBasis: 'CONTRACT', sensitive: false },
      texts: [{ value: 'We share your address with the courier.', language: 'en' }],
    });
    const got = await svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id });
    expect(got).toMatchObject({
      id: s.id,
      groupId: g.id,
      data: 'address',
      purpose: 'delivery',
      action: 'share',
      legalBasis: 'CONTRACT',
      groupName: 'Shop',
      groupPurpose: 'sales',
      archived: false,
      version: 1,
      target: s.target,
    });
    expect(got.texts.map((t) => t.value)).toEqual(['We share your address with the courier.']);
    await expectGrpcError(svc.client.getSpecForConsent({ accountId: A.accountId, specId: 'f'.repeat(24) }), status.NOT_FOUND);
    await expectGrpcError(svc.client.getSpecForConsent({ accountId: A.accountId, specId: 'not-an-id' }), status.NOT_FOUND);
  });

  it('GetSpecForConsent with a version gives the specification as of that version; versions that do not exist are NOT_FOUND', async () => {
    const s = await newSpec(A, { purpose: 'first purpose' });
    await svc.client.updateSpec({ ...A, id: s.id, fields: { purpose: 'second purpose' }, updateMask: ['purpose'] });
    const v1 = await svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id, version: 1 });
    expect(v1).toMatchObject({ id: s.id, version: 1, purpose: 'first purpose', archived: false });
    expect(await svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id, version: 2 })).toMatchObject({ version: 2, purpose: 'second purpose' });
    expect(await svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id })).toMatchObject({ version: 2, purpose: 'second purpose' });
    await expectGrpcError(svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id, version: 3 }), status.NOT_FOUND);
    await expectGrpcError(svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id, version: 0 }), status.NOT_FOUND);
    await expectGrpcError(svc.client.getSpecForConsent({ accountId: B.accountId, specId: s.id, version: 1 }), status.NOT_FOUND);
  });

  it('keep a consent validity in days, given to GetSpecForConsent, and drop it when an update unsets it', async () => {
    const s = await newSpec(A, { consentValidityDays: 365 });
    expect(s.consentValidityDays).toBe(365);
    expect((await svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id })).consentValidityDays).toBe(365);
    const unset = await svc.client.updateSpec({ ...A, id: s.id, fields: {}, updateMask: ['consentValidityDays'] });
    expect(unset).toMatchObject({ version: 2 });
    expect(unset.consentValidityDays).toBeUndefined();
    expect((await svc.client.getSpecForConsent({ accountId: A.accountId, specId: s.id, version: 1 })).consentValidityDays).toBe(365);
  });

  it('ResolveTarget recognises this deployment’s spec URLs and nothing else', async () => {
    const s = await newSpec();
    const r = await svc.client.resolveTarget({ accountId: A.accountId, target: s.target });
    expect(r).toMatchObject({ isSpecTarget: true, specId: s.id });
    expect(r.spec!.id).toBe(s.id);
    expect(await svc.client.resolveTarget({ accountId: A.accountId, target: 'https://example.com/privacy' })).toEqual({ isSpecTarget: false, specId: '' });
    expect((await svc.client.resolveTarget({ accountId: A.accountId, target: s.target.replace('accord.test', 'other.test') })).isSpecTarget).toBe(false);
    await expectGrpcError(
      svc.client.resolveTarget({ accountId: A.accountId, target: `${svc.config.ACCORD_BASE_URL}/dataprocessing/v0/dpspecs/${'e'.repeat(24)}` }),
      status.NOT_FOUND,
    );
  });
});
