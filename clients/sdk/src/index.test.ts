import { defaultSource, nextLink, withSource } from './index';

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
