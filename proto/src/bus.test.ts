import type { ConsentEvent } from './gen/accord/consent/v1/consent';
import { ConsentBusEvent } from './gen/accord/consent/v1/events';
import {
  CONSENT_BUS_CONTENT_TYPE,
  consentBusEventData,
  consentBusEventEnvelope,
  decodeConsentBusEvent,
  encodeConsentBusEvent,
  isConsentBusContentType,
} from './bus';
import { consentEventJson } from './rest';

const event = (over: Partial<ConsentEvent> = {}): ConsentEvent => ({
  id: '0193a5c2f1e8000000a1b2c3d4e5f601',
  subject: 'user-1',
  issuer: 'https://shop.example',
  target: 'https://shop.example/privacy',
  scope: 'default',
  token: 'ABC123',
  createdAt: new Date('2026-11-20T10:15:01.123Z'),
  appId: 'app',
  ...over,
});

const busEvent = (ev: ConsentEvent, over: Partial<ConsentBusEvent> = {}): ConsentBusEvent => ({
  id: ev.id,
  type: 'consent',
  accountId: 'acc',
  appId: ev.appId,
  occurredAt: ev.createdAt,
  event: ev,
  ...over,
});

describe('consent events on the bus (binary ConsentBusEvent)', () => {
  it('decode(encode(m)) gives m back, optional fields absent or present, false and 0-like values kept', () => {
    for (const ev of [
      event(),
      event({ action: false }),
      event({ action: true, source: 'web', delegate: 'agent', targetVersion: 3, expiresAt: new Date('2027-01-01T00:00:00.001Z') }),
      event({ expired: true, erasedAt: new Date('2026-12-01T00:00:00Z') }),
    ]) {
      const m = busEvent(ev);
      expect(decodeConsentBusEvent(encodeConsentBusEvent(m))).toEqual(ConsentBusEvent.fromPartial(m));
    }
    const renewal = busEvent(event({ targetVersion: 1, renewalRequired: true }), { type: 'consent.renewal_required', reconsentSince: 2 });
    expect(decodeConsentBusEvent(encodeConsentBusEvent(renewal))).toMatchObject({ reconsentSince: 2, event: { renewalRequired: true, targetVersion: 1 } });
  });

  it('the webhook data of a bus event is the REST JSON of its event (the same function), plus reconsentSince for renewals', () => {
    const ev = event({ source: 'web', delegate: 'agent', targetVersion: 3, expiresAt: new Date('2027-01-01T00:00:00Z') });
    const data = consentBusEventData(decodeConsentBusEvent(encodeConsentBusEvent(busEvent(ev))));
    expect(data).toEqual(consentEventJson(ev));
    expect(data).toEqual({
      id: ev.id,
      subject: 'user-1',
      issuer: 'https://shop.example',
      target: 'https://shop.example/privacy',
      source: 'web',
      scope: 'default',
      delegate: 'agent',
      action: null,
      token: 'ABC123',
      createdAt: '2026-11-20T10:15:01.123Z',
      appId: 'app',
      targetVersion: 3,
      expiresAt: '2027-01-01T00:00:00.000Z',
    });
    const renewal = busEvent(event({ targetVersion: 1, renewalRequired: true }), { id: 'r1', type: 'consent.renewal_required', reconsentSince: 2 });
    expect(consentBusEventData(renewal)).toEqual({ ...consentEventJson(renewal.event!), renewalRequired: true, reconsentSince: 2 });
    const expired = busEvent(event({ expiresAt: new Date('2026-11-21T00:00:00Z'), expired: true }), { id: 'x1', type: 'consent.expired' });
    expect(consentBusEventData(expired)).toMatchObject({ expired: true, expiresAt: '2026-11-21T00:00:00.000Z' });
  });

  it('the envelope keeps the header fields, occurredAt as ISO 8601', () => {
    const ev = event({ action: true });
    expect(consentBusEventEnvelope(busEvent(ev))).toEqual({
      id: ev.id,
      type: 'consent',
      accountId: 'acc',
      appId: 'app',
      occurredAt: '2026-11-20T10:15:01.123Z',
      data: consentEventJson(ev),
    });
  });

  it('a bus event without its consent event has no data', () => {
    expect(() => consentBusEventData({ id: 'x', type: 'consent', accountId: 'a', appId: 'b' })).toThrow(/no consent event/);
  });

  it('recognises its Content-Type header, and nothing else', () => {
    expect(isConsentBusContentType(CONSENT_BUS_CONTENT_TYPE)).toBe(true);
    expect(isConsentBusContentType('Application/Protobuf;proto=accord.consent.v1.ConsentBusEvent')).toBe(true);
    for (const other of [undefined, '', 'application/json', 'application/protobuf', 'application/protobuf; proto=accord.consent.v1.Other'])
      expect(isConsentBusContentType(other)).toBe(false);
  });
});
