import { consentBusEventData, decodeConsentBusEvent, encodeConsentBusEvent } from '@accord/proto';
import { buildEvents, validateInputs } from '../domain/consent';
import { memoryConsentStore } from '../store/memory/store';
import { EXPIRED_EVENT, ExpirySweeper, expiredBusEvent } from './expiry-sweeper';

describe('consent.expired bus event', () => {
  const [ev] = buildEvents('acc', 'app', validateInputs([{ subject: 's', issuer: 'i', target: 't', action: true }]));
  const lapsed = { ...ev!, expiresAt: new Date('2026-01-01T00:00:00Z') };

  test('carries the lapsed event with expired: true, for the application that recorded it, at its expiry', () => {
    const m = decodeConsentBusEvent(encodeConsentBusEvent(expiredBusEvent({ key: 'k1', event: lapsed })));
    expect(m).toMatchObject({ type: EXPIRED_EVENT, accountId: 'acc', appId: 'app', occurredAt: new Date('2026-01-01T00:00:00.000Z') });
    expect(consentBusEventData(m)).toMatchObject({ id: lapsed.id, action: true, expiresAt: '2026-01-01T00:00:00.000Z', expired: true });
  });

  test('has one id per state and event (a re-publish is de-duplicated; a renewal is a new announcement)', () => {
    const a = expiredBusEvent({ key: 'k1', event: lapsed }).id;
    expect(expiredBusEvent({ key: 'k1', event: lapsed }).id).toBe(a);
    expect(expiredBusEvent({ key: 'k2', event: lapsed }).id).not.toBe(a);
    expect(
      expiredBusEvent({
        key: 'k1',
        event: { ...lapsed, id: `${lapsed.id.slice(0, -1)}0` === lapsed.id ? `${lapsed.id.slice(0, -1)}1` : `${lapsed.id.slice(0, -1)}0` },
      }).id,
    ).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('the expiry sweeper on the memory store', () => {
  const sent: string[] = [];
  const js = {
    publish: async (_subject: string, data: Uint8Array) => {
      sent.push(decodeConsentBusEvent(data).event!.id);
      return {} as never;
    },
  };
  const opts = { prefix: 'x', intervalMs: 60_000, leaseMs: 1000, publishTimeoutMs: 100, logger: { warn: () => undefined } };

  test('costs one store call when nothing lapsed, and two (claim, mark) around the publication for a round with work', async () => {
    const store = memoryConsentStore();
    const sweeper = new ExpirySweeper(store.expiry, js, opts);
    expect(await sweeper.runOnce()).toBe(0);
    expect(store.calls).toEqual(['expiry.claimLapsed']);
    const t = Date.now();
    const [ev] = buildEvents('acc', 'app', validateInputs([{ subject: 's', issuer: 'i', target: 't', action: true, expiresAt: new Date(t + 1000) }], t), t);
    await store.current.apply([ev!]);
    store.calls.length = 0;
    expect(await sweeper.runOnce(new Date(t + 2000))).toBe(1);
    expect(store.calls).toEqual(['expiry.claimLapsed', 'expiry.markAnnounced']);
    expect(sent).toEqual([ev!.id]);
    // announced once: later sweeps find nothing
    expect(await sweeper.runOnce(new Date(t + 10 ** 9))).toBe(0);
    await sweeper.stop();
  });
});
