import { recordBody, subjectId } from './c15t';

describe('the c15t peer', () => {
  it('makes subject ids c15t accepts (sub_ and base58), a new one per request', () => {
    const ids = [0, 1, 57, 58, 3_364, 1_000_000].map((n) => subjectId(Date.UTC(2026, 0, 1), n));
    for (const id of ids) expect(id).toMatch(/^sub_[1-9A-HJ-NP-Za-km-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('records one consent to one purpose for the subject of request n', () => {
    const body = JSON.parse(recordBody(1, 7)) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'marketing_communications', subjectId: subjectId(1, 7), domain: 'bench.example', preferences: { email: true } });
    expect(typeof body.givenAt).toBe('number');
  });
});
