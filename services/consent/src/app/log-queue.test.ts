import { eventLeafHash } from '../domain/log';
import { buildEvents, validateInputs } from '../domain/consent';
import { buildLink, linkLeafHash } from '../domain/link';
import { memoryConsentStore } from '../store/memory/store';
import { Links } from './links';
import { leafQueue } from './log-queue';

const pause = () => new Promise((r) => setTimeout(r, 2));

describe("the consent log's queue with link events", () => {
  it('merges events and links by id, bounded by a full page of either, and marks each where it came from', async () => {
    const store = memoryConsentStore();
    const links = new Links(store.links);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const [e] = buildEvents('acc', 'app', validateInputs([{ subject: `s${i}`, issuer: 'i', target: 't', action: true }]));
      await store.events.insert([[e!]], new Date(Date.now() + 60_000));
      ids.push(e!.id);
      await pause();
      const l = await links.link('acc', 'app', { issuer: 'i', identity: `d${i}`, subject: `u${i}` });
      ids.push(l.id);
      await pause();
    }
    const q = leafQueue(store.logQueue, store.links);
    expect(await q.accounts()).toEqual(['acc']);
    const first = await q.pending('acc', 2);
    expect(first.events.map((e) => e.id)).toEqual(ids.slice(0, 2));
    expect(first.full).toBe(true);
    const second = await q.pending('acc', 10, first.last);
    expect(second.events.map((e) => e.id)).toEqual(ids.slice(2));
    const link = second.events.find((e) => !('accountId' in e))!;
    const stored = (await store.links.naming('acc', 'i', ['d1'], undefined, 1))[0]!;
    expect(link).toEqual({ id: stored.id, leafHash: linkLeafHash(stored) });
    expect(await q.isPending('acc', stored.id)).toBe(true);
    await q.markLogged([...first.events, ...second.events].map((e) => e.id));
    expect(await q.pending('acc', 10)).toEqual({ events: [], full: false });
    expect(await q.isPending('acc', stored.id)).toBe(false);
    expect(await q.accounts()).toEqual([]);
  });

  it("gives a link a leaf of its own kind, never equal to an event's", () => {
    const l = buildLink('acc', 'app', { issuer: 'i', identity: 'd', subject: null });
    expect(linkLeafHash(l)).toHaveLength(32);
    const [e] = buildEvents('acc', 'app', validateInputs([{ subject: 'd', issuer: 'i', target: 't', action: true }]));
    expect(linkLeafHash(l).equals(eventLeafHash(e!))).toBe(false);
  });
});
