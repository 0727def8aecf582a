import type { ConsentInput } from '../domain/consent';
import { memoryConsentStore } from '../store/memory/store';
import { Consents } from './consents';

const I = 'https://shop.example';
const T = 'https://shop.example/privacy';
const A = { accountId: 'acc', appId: 'app' };
const input = (subject: string, over: Partial<ConsentInput> = {}): ConsentInput => ({ subject, issuer: I, target: T, action: true, ...over });
const pause = () => new Promise((r) => setTimeout(r, 3));

function setUp(erasureSecret = '') {
  const store = memoryConsentStore();
  const specs = { lookup: async () => undefined, current: async () => undefined, asOf: async () => undefined };
  const consents = new Consents(
    store,
    { publishStored: () => undefined },
    { keys: [], settings: { baseUrl: 'https://accord.example' } as never, specs },
    { warn: () => undefined },
    undefined,
    erasureSecret,
  );
  const record = async (i: ConsentInput) => {
    const [e] = await consents.create(A.accountId, A.appId, [i]);
    await pause();
    return e!;
  };
  const link = async (identity: string, subject: string | null) => {
    const l = await consents.links.link(A.accountId, A.appId, { issuer: I, identity, subject });
    await pause();
    return l;
  };
  return { store, consents, record, link };
}

describe('reads across linked identities', () => {
  it('current states, search current=true and decisions take the newest event of any linked identity per scope, naming it', async () => {
    const { consents, record, link } = setUp();
    await record(input('device-a', { scope: 'ads', action: true }));
    const phone = await record(input('phone-b', { scope: 'ads', action: false }));
    const own = await record(input('user-42', { scope: 'email', action: true }));
    // before linking: three unrelated subjects
    expect((await consents.currentStates('acc', 'user-42', I, [])).map((e) => e.id)).toEqual([own.id]);
    await link('device-a', 'user-42');
    await link('phone-b', 'user-42');
    const states = await consents.currentStates('acc', 'user-42', I, []);
    expect(states.map((e) => [e.scope, e.subject, e.action])).toEqual([
      ['email', 'user-42', true],
      ['ads', 'phone-b', false],
    ]);
    // asked by one of its identities: the same group
    expect((await consents.currentStates('acc', 'device-a', I, [])).map((e) => e.id)).toEqual(states.map((e) => e.id));
    expect((await consents.search({ ...A, subject: 'user-42', issuer: I, target: T, current: true })).events.map((e) => e.id)).toEqual(states.map((e) => e.id));
    expect((await consents.search({ ...A, subject: 'user-42', issuer: I, target: T, scope: 'ads', current: true })).events.map((e) => e.id)).toEqual([
      phone.id,
    ]);
    const { decisions } = await consents.decide('acc', [
      { subject: 'user-42', issuer: I, target: T, scope: 'ads' },
      { subject: 'user-42', issuer: I, target: T, scope: 'email' },
      { subject: 'user-7', issuer: I, target: T, scope: 'ads' },
    ]);
    expect(decisions.map((d) => [d.allowed, d.identity, d.event?.id])).toEqual([
      [false, 'phone-b', phone.id],
      [true, 'user-42', own.id],
      [false, undefined, undefined],
    ]);
  });

  it('plain search stays per identity unless linked=true, which merges the histories newest first and pages them', async () => {
    const { consents, record, link } = setUp();
    const a = await record(input('device-a'));
    const b = await record(input('user-42'));
    const c = await record(input('device-a', { action: false }));
    await link('device-a', 'user-42');
    const q = { ...A, subject: 'user-42', issuer: I, target: T, current: false };
    expect((await consents.search(q)).events.map((e) => e.id)).toEqual([b.id]);
    const first = await consents.search({ ...q, linked: true, limit: 2 });
    expect(first.events.map((e) => e.id)).toEqual([c.id, b.id]);
    expect((await consents.search({ ...q, linked: true, limit: 2, cursor: first.next! })).events.map((e) => e.id)).toEqual([a.id]);
  });

  it('a decision at a past `at` uses the links as they were then; moving a device moves its consents', async () => {
    const { consents, record, link } = setUp();
    const d = await record(input('device-a', { action: true }));
    await link('device-a', 'user-42');
    const linkedAt = new Date();
    await pause();
    await link('device-a', 'user-43');
    const ask = (subject: string, at?: Date) => consents.decide('acc', [{ subject, issuer: I, target: T }], at).then((r) => r.decisions[0]!);
    expect(await ask('user-42')).toMatchObject({ allowed: false });
    expect(await ask('user-43')).toMatchObject({ allowed: true, identity: 'device-a', event: { id: d.id } });
    expect(await ask('user-42', linkedAt)).toMatchObject({ allowed: true, identity: 'device-a' });
    expect(await ask('user-43', linkedAt)).toMatchObject({ allowed: false });
    // a newer event of the subject itself wins over the device's
    const own = await record(input('user-43', { action: false }));
    expect(await ask('user-43')).toMatchObject({ allowed: false, identity: 'user-43', event: { id: own.id } });
  });

  it('cost an account without links no link lookup once probed, and a subject without links in an account with links one', async () => {
    const { store, consents, record, link } = setUp();
    await record(input('user-7'));
    store.calls.length = 0;
    await consents.currentStates('acc', 'user-7', I, []);
    expect(store.calls).toEqual(['links.any', 'current.ofSubject']);
    store.calls.length = 0;
    const many = Array.from({ length: 50 }, (_, i) => ({ subject: `user-${i}`, issuer: I, target: T }));
    await consents.decide('acc', many);
    await consents.currentStates('acc', 'user-7', I, []);
    expect(store.calls).toEqual(['current.forDecisions', 'current.ofSubject']);
    await link('device-a', 'user-42');
    store.calls.length = 0;
    await consents.currentStates('acc', 'user-7', I, []);
    await consents.decide('acc', many);
    expect(store.calls).toEqual(['links.naming', 'current.ofSubject', 'links.naming', 'links.ofIdentities', 'current.forDecisions']);
  });

  it('erasing a subject erases its linked identities too, keeping the events and links as evidence under hashes', async () => {
    const { store, consents, record, link } = setUp('secret-of-the-installation-for-tests-only');
    await record(input('device-a', { scope: 'ads' }));
    await record(input('user-42', { scope: 'email' }));
    const other = await record(input('device-z'));
    await link('device-a', 'user-42');
    await link('device-z', 'user-7');
    const rec = await consents.erase('acc', 'app', 'client', { subject: 'user-42' });
    expect(rec).toMatchObject({ events: 2, states: 2 });
    expect(await consents.currentStates('acc', 'device-a', I, [])).toEqual([]);
    expect(await consents.currentStates('acc', 'user-42', I, [])).toEqual([]);
    // another person's device stays
    expect((await consents.currentStates('acc', 'user-7', I, [])).map((e) => e.id)).toEqual([other.id]);
    const links = await store.links.naming('acc', I, [rec.subjectHash], undefined, 10);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ identity: expect.stringMatching(/^erased:/), subject: rec.subjectHash, erasedAt: expect.any(Date) });
    expect(JSON.stringify(await store.links.naming('acc', I, ['device-a', 'user-42'], undefined, 10))).toBe('[]');
    // again: nothing left
    expect(await consents.erase('acc', 'app', 'client', { subject: 'user-42' })).toMatchObject({ events: 0, states: 0 });
  });
});
