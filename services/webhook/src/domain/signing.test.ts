import { Webhook } from 'standardwebhooks';
import { activeSecrets, deliveryBody, generateSecret, signatureHeaders, rotateSecrets } from './signing';

describe('delivery signing (Standard Webhooks)', () => {
  it('makes whsec_ secrets of 24 random bytes', () => {
    const s = generateSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(24);
    expect(generateSecret()).not.toBe(s);
  });

  it('signs so that the standardwebhooks library verifies with any active secret', () => {
    const a = generateSecret();
    const b = generateSecret();
    const body = deliveryBody('consent', { id: 'e1', action: true }, 'A consent event was recorded');
    const headers = signatureHeaders('evt_1', body, [a, b], new Date());
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(a).verify(body, headers)).toEqual({ type: 'consent', text: 'A consent event was recorded', data: { id: 'e1', action: true } });
    expect(new Webhook(b).verify(body, headers)).toBeTruthy();
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(a).verify(body + ' ', headers)).toThrow();
  });

  it('keeps rotated-out secrets signing only until their grace ends', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const secrets = [
      { secret: 'new', expiresAt: null },
      { secret: 'old', expiresAt: new Date('2026-01-01T01:00:00Z') },
      { secret: 'older', expiresAt: new Date('2025-12-31T23:00:00Z') },
    ];
    expect(activeSecrets(secrets, now)).toEqual(['new', 'old']);
  });
});

describe('secret rotation', () => {
  const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
  it('puts the new secret first, keeps the current one for the grace period and drops secrets whose grace has ended', () => {
    const secrets = [
      { secret: 'current', createdAt: t(0), expiresAt: null },
      { secret: 'older', createdAt: t(0), expiresAt: t(30) },
      { secret: 'ended', createdAt: t(0), expiresAt: t(5) },
    ];
    expect(rotateSecrets(secrets, 'new', t(10), 60_000)).toEqual([
      { secret: 'new', createdAt: t(10), expiresAt: null },
      { secret: 'current', createdAt: t(0), expiresAt: t(70) },
      { secret: 'older', createdAt: t(0), expiresAt: t(30) },
    ]);
  });
});
