import { parseSpecTarget, specTargetUrl } from './target';

const id = '65f000000000000000000001';

describe('specification target URLs', () => {
  it('are {base_url}/dataprocessing/v0/dpspecs/<id>', () => {
    expect(specTargetUrl('https://accord.example/', id)).toBe(`https://accord.example/dataprocessing/v0/dpspecs/${id}`);
    expect(specTargetUrl('https://example.org/api', id)).toBe(`https://example.org/api/dataprocessing/v0/dpspecs/${id}`);
  });

  it('round-trip, with a base path and a case-insensitive host', () => {
    expect(parseSpecTarget('https://accord.example', specTargetUrl('https://accord.example', id))).toBe(id);
    expect(parseSpecTarget('https://example.org/api/', `https://EXAMPLE.org/api/dataprocessing/v0/dpspecs/${id}`)).toBe(id);
  });

  it('are not recognised from another origin, path, or with a query, fragment or malformed id', () => {
    const base = 'https://accord.example';
    for (const t of [
      `http://accord.example/dataprocessing/v0/dpspecs/${id}`,
      `https://evil.example/dataprocessing/v0/dpspecs/${id}`,
      `https://accord.example/dataprocessing/v1/dpspecs/${id}`,
      `https://accord.example/dataprocessing/v0/dpspecs/${id}?x=1`,
      `https://accord.example/dataprocessing/v0/dpspecs/${id}#a`,
      `https://accord.example/dataprocessing/v0/dpspecs/${id}/texts`,
      'https://accord.example/dataprocessing/v0/dpspecs/not-an-id',
      'urn:accord:dpspec:' + id,
      'not a url',
    ])
      expect(parseSpecTarget(base, t)).toBeNull();
  });
});
