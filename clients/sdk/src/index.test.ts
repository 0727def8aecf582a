import { Accord, AccordError, defaultSource, nextLink, withSource } from './index';

describe('Link cursor', () => {
  it('finds rel="next" among several links, and nothing on the last page', () => {
    expect(nextLink('<http://a/x?cursor=1>; rel="prev", <http://a/x?cursor=2>; rel="next"')).toBe('http://a/x?cursor=2');
    expect(nextLink('<http://a/x?cursor=1>; rel="prev"')).toBeUndefined();
    expect(nextLink(null)).toBeUndefined();
  });
});

describe('consent source', () => {
  it('is the SDK name and version in Node', () => {
    expect(defaultSource()).toBe('accord-sdk-js/0.1.0');
  });
  it('is filled only where an event has none, in a single event and in an array', () => {
    expect(withSource({ subject: 's', issuer: 'i', target: 't' }, 'sdk')).toEqual({ subject: 's', issuer: 'i', target: 't', source: 'sdk' });
    expect(
      withSource(
        [
          { subject: 's', issuer: 'i', target: 't', source: 'mine' },
          { subject: 's', issuer: 'i', target: 't' },
        ],
        'sdk',
      ).map((e) => e.source),
    ).toEqual(['mine', 'sdk']);
  });
});

describe('linking an identity after sign-in', () => {
  it('posts the link with the application token and answers the stored link; a refusal is an AccordError with its status', async () => {
    const seen: Array<{ url: string; auth: string | null; body: unknown }> = [];
    let status = 201;
    const fetch = (async (req: Request) => {
      seen.push({ url: req.url, auth: req.headers.get('authorization'), body: await req.json() });
      const body =
        status === 201
          ? { id: '0'.repeat(32), appId: 'app', issuer: 'https://shop.example', identity: 'dev-1', subject: 'user-42', createdAt: new Date(0).toISOString() }
          : { type: 'about:blank', title: 'Conflict', status, errors: [{ field: 'identity', message: 'chains' }] };
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': status === 201 ? 'application/json' : 'application/problem+json' } });
    }) as typeof globalThis.fetch;
    const accord = new Accord({ baseUrl: 'http://accord.test/', token: 'app-token', apiKey: 'key', fetch });
    const link = await accord.linkIdentity({ issuer: 'https://shop.example', identity: 'dev-1', subject: 'user-42' });
    expect(link.subject).toBe('user-42');
    expect(seen[0]).toEqual({
      url: 'http://accord.test/consent/v0/subjects/links',
      auth: 'Bearer app-token',
      body: { issuer: 'https://shop.example', identity: 'dev-1', subject: 'user-42' },
    });
    status = 409;
    await expect(accord.linkIdentity({ issuer: 'https://shop.example', identity: 'user-42', subject: 'x' })).rejects.toBeInstanceOf(AccordError);
  });
});
