import { responseProblems } from './openapi-check';

// The check the harness applies to every e2e answer must be able to fail.
describe('answers checked against the OpenAPI document', () => {
  const event = {
    id: '0123456789abcdef0123456789abcdef',
    subject: 's',
    issuer: 'i',
    target: 't',
    scope: 'default',
    action: true,
    token: 'ABC123',
    createdAt: '2026-01-01T00:00:00.000Z',
    appId: 'a',
  };

  it('pass when status, type and body are documented', () => {
    expect(responseProblems('GET', '/consent/v0/consents/abc', 200, 'application/json; charset=utf-8', event)).toEqual([]);
  });

  it('fail on an undocumented status', () => {
    expect(responseProblems('GET', '/consent/v0/consents/abc', 418, 'application/json', {})?.[0]).toMatch(/does not declare this status/);
  });

  it('fail on an undocumented content type', () => {
    expect(responseProblems('GET', '/consent/v0/consents/abc', 200, 'text/plain', 'x')?.[0]).toMatch(/content type "text\/plain" is not documented/);
  });

  it('fail on a body that does not match the schema', () => {
    const { token: _token, ...withoutToken } = event;
    expect(responseProblems('GET', '/consent/v0/consents/abc', 200, 'application/json', withoutToken)?.join()).toMatch(/token/);
  });

  it('leave paths outside the document alone (their 404 is the point)', () => {
    expect(responseProblems('GET', '/nope', 404, 'application/problem+json', {})).toBeNull();
  });
});
