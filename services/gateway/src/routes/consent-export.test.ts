import type { consentv1 } from '@accord/proto';
import { currentOf } from './consent';

const ev = (id: string, o: Partial<consentv1.ConsentEvent> = {}): consentv1.ConsentEvent =>
  ({ id, subject: 's', issuer: 'i', target: 't', scope: 'default', token: 'abcdef', appId: 'a', ...o }) as consentv1.ConsentEvent;

describe('current states of a subject export', () => {
  test('the newest event of each (issuer, target, scope), newest first', () => {
    const events = [
      ev('01', { action: true }),
      ev('02', { target: 't2', action: true }),
      ev('03', { action: false }),
      ev('04', { scope: 'email' }),
      ev('05', { issuer: 'i2' }),
    ];
    expect(currentOf(events).map((e) => e.id)).toEqual(['05', '04', '03', '02']);
  });

  test('a current state past its expiresAt is marked expired; one not yet lapsed is not', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const [lapsed, live] = currentOf(
      [ev('01', { expiresAt: new Date('2026-05-01T00:00:00Z') }), ev('02', { target: 't2', expiresAt: new Date('2026-07-01T00:00:00Z') })],
      now,
    ).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(lapsed!.expired).toBe(true);
    expect(live!.expired).toBeUndefined();
  });

  test('a target whose name contains the separator of another key stays its own state', () => {
    expect(currentOf([ev('01', { target: 'a|b', scope: 'c' }), ev('02', { target: 'a', scope: 'b|c' })])).toHaveLength(2);
  });
});
