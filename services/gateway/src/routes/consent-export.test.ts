import type { consentv1 } from '@accord/proto';
import { currentStatesOf } from './consent';

const ev = (id: string, o: Partial<consentv1.ConsentEvent> = {}): consentv1.ConsentEvent =>
  ({ id, subject: 's', issuer: 'i', target: 't', scope: 'default', token: 'abcdef', appId: 'a', ...o }) as consentv1.ConsentEvent;

/** A consent service whose current states are `states`, two to a search page; records each search. */
function consentWith(states: consentv1.ConsentEvent[]) {
  const searches: Array<{ issuer: string; target: string; cursor: string }> = [];
  return {
    searches,
    async searchConsents(req: consentv1.SearchConsentsRequest): Promise<consentv1.SearchConsentsResponse> {
      expect(req.current).toBe(true);
      const cursor = req.page?.cursor ?? '';
      searches.push({ issuer: req.issuer, target: req.target, cursor });
      const all = states.filter((e) => e.subject === req.subject && e.issuer === req.issuer && e.target === req.target);
      const from = cursor ? Number(cursor) : 0;
      return { events: all.slice(from, from + 2), nextCursor: from + 2 < all.length ? String(from + 2) : '' };
    },
  };
}

describe("the current states of a subject's export", () => {
  test('are the consent service answers to a current search per (issuer, target), every page, newest first, with its marks', async () => {
    const states = [
      ev('09', { scope: 'a', renewalRequired: true }),
      ev('08', { scope: 'b', expired: true }),
      ev('07', { scope: 'c' }),
      ev('06', { issuer: 'i2' }),
    ];
    const consent = consentWith(states);
    const events = [ev('01', { scope: 'a' }), ev('02', { scope: 'b' }), ev('03', { scope: 'c' }), ev('04', { issuer: 'i2' }), ev('05', { scope: 'a' })];
    const current = await currentStatesOf(consent, 'acc', 's', events);
    expect(current.map((e) => e.id)).toEqual(['09', '08', '07', '06']);
    expect(current[0]!.renewalRequired).toBe(true);
    expect(current[1]!.expired).toBe(true);
    expect([...consent.searches].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))).toEqual([
      { issuer: 'i', target: 't', cursor: '' },
      { issuer: 'i', target: 't', cursor: '2' },
      { issuer: 'i2', target: 't', cursor: '' },
    ]);
  });

  test('hold only the states of the (issuer, target, scope) the exported events name', async () => {
    const consent = consentWith([ev('09', { scope: 'a' }), ev('08', { scope: 'not-exported' })]);
    expect((await currentStatesOf(consent, 'acc', 's', [ev('01', { scope: 'a' })])).map((e) => e.id)).toEqual(['09']);
  });

  test('a target whose name contains the separator of another key stays its own state', async () => {
    const states = [ev('02', { target: 'a|b', scope: 'c' }), ev('01', { target: 'a', scope: 'b|c' })];
    expect(await currentStatesOf(consentWith(states), 'acc', 's', states)).toHaveLength(2);
  });
});
