import { CONSENT_BUS_CONTENT_TYPE, consentEventJson, encodeConsentBusEvent, type consentv1 } from '@accord/proto';
import { ackPerTurn, parseEvent } from './consumer';

const headers = (h: Record<string, string>) => ({ get: (k: string) => h[k] ?? '' });
const proto = headers({ 'Content-Type': CONSENT_BUS_CONTENT_TYPE });
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

/** The event's fields that read the same in the message and in its JSON. */
const fields = {
  subject: 'user-1',
  issuer: 'https://shop.example',
  target: 'https://shop.example/privacy',
  source: 'web',
  scope: 'default',
  action: true,
  token: 'ABC123',
  appId: 'app',
  targetVersion: 2,
};
const ev: consentv1.ConsentEvent = { id: '0193a5c2f1e8000000a1b2c3d4e5f601', ...fields, createdAt: new Date('2026-11-20T10:15:01.123Z') };

/** The JSON envelope the previous release published for `ev` (its toJson as `data`). */
const previousRelease = {
  id: ev.id,
  type: 'consent',
  accountId: 'acc',
  appId: 'app',
  occurredAt: '2026-11-20T10:15:01.123Z',
  data: { id: ev.id, ...fields, createdAt: '2026-11-20T10:15:01.123Z' },
};

describe('reading event messages', () => {
  it('decodes a binary ConsentBusEvent (marked by its Content-Type) into an envelope whose data is the REST JSON of the event', () => {
    const bytes = encodeConsentBusEvent({ id: ev.id, type: 'consent', accountId: 'acc', appId: 'app', occurredAt: ev.createdAt, event: ev });
    expect(parseEvent(bytes, proto)).toEqual({
      id: ev.id,
      type: 'consent',
      accountId: 'acc',
      appId: 'app',
      occurredAt: '2026-11-20T10:15:01.123Z',
      data: consentEventJson(ev),
    });
  });

  it('still reads the JSON envelope of the previous release (messages left in the stream by an upgrade), delivering its data as published', () => {
    expect(parseEvent(json(previousRelease), headers({}))).toEqual(previousRelease);
    expect(parseEvent(json(previousRelease))).toEqual(previousRelease);
  });

  it('gives the same envelope for an event in either form', () => {
    const bytes = encodeConsentBusEvent({ id: ev.id, type: 'consent', accountId: 'acc', appId: 'app', occurredAt: ev.createdAt, event: ev });
    expect(parseEvent(bytes, proto)).toEqual(parseEvent(json(previousRelease)));
  });

  it('reads JSON envelopes of other types (log.tree_head) as before', () => {
    const head = { id: 'h1', type: 'log.tree_head', accountId: 'acc', appId: '', occurredAt: '2026-11-20T10:15:01.123Z', data: { treeSize: 3 } };
    expect(parseEvent(json(head))).toEqual(head);
  });

  it('refuses what is not an event: bytes that do not match their Content-Type, bus events missing a field, JSON without an id', () => {
    expect(parseEvent(json(previousRelease), proto)).toBeNull();
    expect(parseEvent(encodeConsentBusEvent({ id: ev.id, type: 'consent', accountId: 'acc', appId: 'app', event: ev }))).toBeNull();
    expect(parseEvent(encodeConsentBusEvent({ id: ev.id, type: 'consent', accountId: 'acc', appId: 'app' }), proto)).toBeNull();
    expect(parseEvent(encodeConsentBusEvent({ id: '', type: 'consent', accountId: 'acc', appId: 'app', event: ev }), proto)).toBeNull();
    expect(parseEvent(json({ ...previousRelease, id: '' }))).toBeNull();
    expect(parseEvent(new Uint8Array([0xff, 0xff, 0xff]), proto)).toBeNull();
  });
});

describe('acknowledgements per turn', () => {
  it('acknowledges nothing until the turn ends, then every message of the turn in one synchronous run, in order', () => {
    const turns: Array<() => void> = [];
    const acks = ackPerTurn((fn) => turns.push(fn));
    const acked: string[] = [];
    const msg = (id: string) => ({ ack: () => void acked.push(id) });
    acks.ack(msg('a'));
    acks.ack(msg('b'));
    acks.ack(msg('c'));
    expect(acked).toEqual([]);
    expect(turns).toHaveLength(1); // one flush scheduled for the turn, not one per message
    turns[0]!();
    expect(acked).toEqual(['a', 'b', 'c']);
    acks.ack(msg('d')); // a later turn gets its own flush
    expect(turns).toHaveLength(2);
    turns[1]!();
    expect(acked).toEqual(['a', 'b', 'c', 'd']);
  });

  it('sends what waits at once on flush (stop), and nothing twice', () => {
    const turns: Array<() => void> = [];
    const acks = ackPerTurn((fn) => turns.push(fn));
    const acked: string[] = [];
    acks.ack({ ack: () => void acked.push('a') });
    acks.flush();
    expect(acked).toEqual(['a']);
    turns[0]!(); // the scheduled flush finds nothing left
    expect(acked).toEqual(['a']);
  });
});
