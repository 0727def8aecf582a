import { buildEvents, stateKey, validateInputs } from '../domain/consent';
import { accountErasureKey, pseudonym } from '../domain/erasure';
import { eventLeafHash } from '../domain/log';
import { memoryConsentStore } from '../store/memory/store';
import { eraseSubject } from './erasure';

const key = accountErasureKey('secret-of-the-installation-for-tests-only', 'acc');
const ev = (subject: string, over: object = {}) => ({ subject, issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true, ...over });

describe('subject erasure on the memory store', () => {
  it('hashes the subject in its events and states, keeps every count, and fixes the leaf of events still waiting for it', async () => {
    const store = memoryConsentStore();
    const evs = buildEvents('acc', 'app', validateInputs([ev('gina', { source: 'https://shop.example/u/gina' }), ev('gina', { scope: 'sms' }), ev('ivo')]));
    await store.events.insert([evs], new Date(Date.now() + 60_000));
    await store.current.apply(evs);
    await store.statistics.count(evs);
    await store.logQueue.markLogged([evs[1]!.id]);
    const before = await store.statistics.read('acc', 'app', new Date());

    const out = await eraseSubject(store.erasure, 'acc', 'gina', undefined, key, new Date());
    const hash = pseudonym(key, 'gina');
    expect(out).toEqual({ subjectHash: hash, events: 2, states: 2 });
    const [first] = await Promise.all([store.events.findById('acc', evs[0]!.id)]);
    expect(first).toMatchObject({ subject: hash, source: pseudonym(key, 'https://shop.example/u/gina') });
    expect(first!.erasedAt).toBeInstanceOf(Date);
    // the leaf of the event still waiting is the answered event's, never the redacted one's
    const waiting = (await store.logQueue.pending('acc', 10)).events.find((e) => e.id === evs[0]!.id)!;
    expect(waiting.leafHash).toEqual(eventLeafHash(evs[0]!));
    // the states moved to the pseudonym, counts unchanged
    expect((await store.current.byKeys('acc', [stateKey('acc', 'gina', 'https://shop.example', 'https://shop.example/privacy', 'default')])).size).toBe(0);
    expect(await store.current.ofSubject('acc', hash, 'https://shop.example', [], 10)).toHaveLength(2);
    expect(await store.statistics.read('acc', 'app', new Date())).toEqual(before);
    // erasing again changes nothing
    expect(await eraseSubject(store.erasure, 'acc', 'gina', undefined, key, new Date())).toEqual({ subjectHash: hash, events: 0, states: 0 });
  });

  it('gives up, rather than loop, when events of the subject match but never change', async () => {
    const store = memoryConsentStore();
    await store.events.insert([buildEvents('acc', 'app', validateInputs([ev('gina')]))], new Date());
    const stuck = { ...store.erasure, rewrite: async () => 0 };
    await expect(eraseSubject(stuck, 'acc', 'gina', undefined, key, new Date())).rejects.toThrow(/could not be rewritten/);
  });
});
