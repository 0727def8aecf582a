import { z } from 'zod';
import { consent } from './contracts';
import type { ConsentEvent } from './gen/accord/consent/v1/consent';
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

/** The document's ConsentEvent schema, refusing any field it does not name. */
const documented = z.strictObject(consent.ConsentEvent.shape);

describe('the REST JSON of a consent event', () => {
  it('is what the document says a ConsentEvent is, with every optional field absent or present', () => {
    for (const ev of [
      event(),
      event({ action: false }),
      event({ action: true, source: 'web', delegate: 'agent', targetVersion: 3, expiresAt: new Date('2027-01-01T00:00:00.001Z') }),
      event({ expired: true, renewalRequired: true, erasedAt: new Date('2026-12-01T00:00:00Z') }),
    ]) {
      const json = consentEventJson(ev);
      expect(documented.safeParse(json).error).toBeUndefined();
    }
  });

  it('writes absent fields as absent and no action as null', () => {
    expect(consentEventJson(event())).toEqual({
      id: '0193a5c2f1e8000000a1b2c3d4e5f601',
      subject: 'user-1',
      issuer: 'https://shop.example',
      target: 'https://shop.example/privacy',
      scope: 'default',
      action: null,
      token: 'ABC123',
      createdAt: '2026-11-20T10:15:01.123Z',
      appId: 'app',
    });
  });
});
