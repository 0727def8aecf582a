import { canonicalJson, eventLeaf } from './jcs';
import { leafHash } from './merkle';

describe('RFC 8785 serialization of leaves', () => {
  it('orders properties by UTF-16 code units (RFC 8785 §3.2.3 example)', () => {
    const input = JSON.parse(
      String.raw`{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}`,
    );
    // (parsing the output back would reorder it: JavaScript puts integer-like keys first)
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    expect(canonicalJson(input)).toBe(`{${order.map((k) => `${JSON.stringify(k)}:${JSON.stringify(input[k])}`).join(',')}}`);
  });

  it('serializes numbers, strings and literals as the RFC 8785 §3.2.2 example', () => {
    const input = JSON.parse(
      String.raw`{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}`,
    );
    expect(canonicalJson(input)).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it('refuses what JSON cannot carry instead of hashing something else', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson({ n: NaN })).toThrow();
    expect(() => canonicalJson({ n: Infinity })).toThrow();
    expect(() => eventLeaf([] as never)).toThrow(TypeError);
  });

  it('the leaf of an event does not depend on the order its fields arrived in, and changes with any field', () => {
    const ev = {
      id: '0192f3a1b2c3d4e5f6a7b8c9',
      subject: 'user-1',
      issuer: 'https://shop.example',
      target: 'https://shop.example/privacy',
      scope: 'newsletter',
      action: true,
      token: 'tok-1',
      createdAt: '2026-11-23T07:00:00.000Z',
      appId: 'app-1',
    };
    const shuffled = Object.fromEntries(Object.entries(ev).reverse());
    expect(eventLeaf(shuffled).toString('utf8')).toBe(
      '{"action":true,"appId":"app-1","createdAt":"2026-11-23T07:00:00.000Z","id":"0192f3a1b2c3d4e5f6a7b8c9","issuer":"https://shop.example","scope":"newsletter","subject":"user-1","target":"https://shop.example/privacy","token":"tok-1"}',
    );
    expect(leafHash(eventLeaf(shuffled)).equals(leafHash(eventLeaf(ev)))).toBe(true);
    expect(leafHash(eventLeaf({ ...ev, action: false })).equals(leafHash(eventLeaf(ev)))).toBe(false);
    expect(leafHash(eventLeaf({ ...ev, action: null })).equals(leafHash(eventLeaf(ev)))).toBe(false);
  });
});
