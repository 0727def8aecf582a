import { consentBusEventData, decodeConsentBusEvent, encodeConsentBusEvent } from '@accord/proto';
import { buildEvents, validateInputs } from '../domain/consent';
import { EXPIRED_EVENT, expiredBusEvent } from './expiry-sweeper';

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
