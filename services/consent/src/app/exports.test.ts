import { status } from '@grpc/grpc-js';
import { LIMITS, type ConsentEvent } from '../domain/consent';
import type { Consents } from './consents';
import { currentStatesNamed, subjectExport } from './exports';

const ev = (id: string, o: Partial<ConsentEvent> = {}): ConsentEvent =>
  ({ id, accountId: 'acc', subject: 's', issuer: 'i', target: 't', scope: 'default', token: 'ABCDEF', appId: 'a', ...o }) as ConsentEvent;

/** Consents whose current states are `states`, two to a search page; records each search. */
function consentsWith(states: ConsentEvent[], events: ConsentEvent[] = [], exact = true) {
  const searches: Array<{ issuer: string; target: string; cursor: string }> = [];
  const consents: Pick<Consents, 'search' | 'exportPage'> = {
    async search(p) {
      expect(p.current).toBe(true);
      const cursor = p.cursor ?? '';
      searches.push({ issuer: p.issuer, target: p.target, cursor });
      const all = states.filter((e) => e.subject === p.subject && e.issuer === p.issuer && e.target === p.target);
      const from = cursor ? Number(cursor) : 0;
      return { events: all.slice(from, from + 2), ...(from + 2 < all.length ? { next: String(from + 2) } : {}) };
    },
    async exportPage(p) {
      const from = p.cursor ? Number(p.cursor) : 0;
      const limit = p.limit ?? LIMITS.exportPage;
      const page = events.slice(from, from + limit);
      return {
        events: page,
        ...(from + limit < events.length ? { next: String(from + limit) } : {}),
        ...(p.withTotal ? { total: { total: events.length, exact } } : {}),
      };
    },
  };
  return { consents, searches };
}

describe("the current states of a subject's export", () => {
  test('are the answers to a current search per (issuer, target), every page, newest first, with their marks', async () => {
    const states = [
      ev('09', { scope: 'a', renewalRequired: true }),
      ev('08', { scope: 'b', expired: true }),
      ev('07', { scope: 'c' }),
      ev('06', { issuer: 'i2' }),
    ];
    const { consents, searches } = consentsWith(states);
    const events = [ev('01', { scope: 'a' }), ev('02', { scope: 'b' }), ev('03', { scope: 'c' }), ev('04', { issuer: 'i2' }), ev('05', { scope: 'a' })];
    const current = await currentStatesNamed(consents, 'acc', 's', events);
    expect(current.map((e) => e.id)).toEqual(['09', '08', '07', '06']);
    expect(current[0]!.renewalRequired).toBe(true);
    expect(current[1]!.expired).toBe(true);
    expect([...searches].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))).toEqual([
      { issuer: 'i', target: 't', cursor: '' },
      { issuer: 'i', target: 't', cursor: '2' },
      { issuer: 'i2', target: 't', cursor: '' },
    ]);
  });

  test('hold only the states of the (issuer, target, scope) the exported events name', async () => {
    const { consents } = consentsWith([ev('09', { scope: 'a' }), ev('08', { scope: 'not-exported' })]);
    expect((await currentStatesNamed(consents, 'acc', 's', [ev('01', { scope: 'a' })])).map((e) => e.id)).toEqual(['09']);
  });

  test('a target whose name contains the separator of another key stays its own state', async () => {
    const states = [ev('02', { target: 'a|b', scope: 'c' }), ev('01', { target: 'a', scope: 'b|c' })];
    expect(await currentStatesNamed(consentsWith(states).consents, 'acc', 's', states)).toHaveLength(2);
  });
});

describe("a subject's export as one document", () => {
  test('holds every event of the subject, oldest first, across pages, and its current states', async () => {
    const events = Array.from({ length: LIMITS.exportPage + 3 }, (_, i) => ev(String(i).padStart(6, '0')));
    const { consents } = consentsWith([ev('999999')], events);
    const out = await subjectExport(consents, { accountId: 'acc', subject: 's' });
    expect(out.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(out.current.map((e) => e.id)).toEqual(['999999']);
  });

  test('refuses a subject with more events than one document holds: at once on an exact count, else once read past the limit', async () => {
    const events = Array.from({ length: LIMITS.exportJsonMax + 1 }, (_, i) => ev(String(i).padStart(7, '0')));
    await expect(subjectExport(consentsWith([], events).consents, { accountId: 'acc', subject: 's' })).rejects.toMatchObject({
      code: status.FAILED_PRECONDITION,
    });
    await expect(subjectExport(consentsWith([], events, false).consents, { accountId: 'acc', subject: 's' })).rejects.toMatchObject({
      code: status.FAILED_PRECONDITION,
    });
  });

  test('names the subject it needs', async () => {
    await expect(subjectExport(consentsWith([]).consents, { accountId: 'acc', subject: '' })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
  });
});
