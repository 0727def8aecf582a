import { buildLink } from '../domain/link';
import { memoryConsentStore } from '../store/memory/store';
import { LinkPublisher } from './link-publisher';

const opts = { prefix: 'accord', publishTimeoutMs: 1000, leaseMs: 30_000, pollMs: 1000, logger: { warn: () => undefined } };

describe('subject.linked publication', () => {
  it('publishes a stored link at once and marks it published; a failed publish is left to the relay after the lease, never lost', async () => {
    const store = memoryConsentStore();
    const sent: Array<{ subject: string; id: string; data: unknown }> = [];
    let down = true;
    const js = {
      publish: async (subject: string, body: Uint8Array, o?: { msgID?: string }) => {
        if (down) throw new Error('nats down');
        sent.push({ subject, id: o!.msgID!, data: JSON.parse(Buffer.from(body).toString()).data });
        return {} as never;
      },
    };
    const pub = new LinkPublisher(js, store.links, opts);
    const now = Date.now();
    const l = buildLink('acc', 'app', { issuer: 'i', identity: 'dev', subject: 'user' }, now);
    await store.links.insert(l, new Date(now + 30_000), Buffer.alloc(32));
    pub.stored(l);
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([]);
    // before the lease: the writer's; after it, the relay's
    expect(await pub.relay(new Date(now + 1000))).toBe(0);
    down = false;
    expect(await pub.relay(new Date(now + 31_000))).toBe(1);
    expect(sent).toEqual([{ subject: 'accord.events.subject.linked.acc.app', id: l.id, data: expect.objectContaining({ identity: 'dev', subject: 'user' }) }]);
    expect(await pub.relay(new Date(now + 120_000))).toBe(0);

    const m = buildLink('acc', 'app', { issuer: 'i', identity: 'dev', subject: null }, now + 5);
    await store.links.insert(m, new Date(now + 30_000), Buffer.alloc(32));
    pub.stored(m);
    await new Promise((r) => setTimeout(r, 10));
    expect(sent.map((s) => s.id)).toEqual([l.id, m.id]);
    expect(await pub.relay(new Date(now + 120_000))).toBe(0);
  });
});
