import { copyRecord } from './memory-store';

describe('copyRecord', () => {
  it('copies plain objects, arrays, Dates and Buffers deeply, so a change of the copy leaves the original as it was', () => {
    const original = { at: new Date(1000), list: [{ n: 1 }], bytes: Buffer.from([1, 2]), nothing: null, text: 'a' };
    const copy = copyRecord(original);
    expect(copy).toEqual(original);
    copy.at.setTime(2000);
    copy.list[0]!.n = 2;
    copy.bytes[0] = 9;
    expect(original).toEqual({ at: new Date(1000), list: [{ n: 1 }], bytes: Buffer.from([1, 2]), nothing: null, text: 'a' });
    expect(copy.at).toBeInstanceOf(Date);
  });
});

describe('copyRecord and keys that are also property names', () => {
  it('copies a key named __proto__ as a key of its own (a webhook header is named so), not as the copy’s prototype', () => {
    const headers = JSON.parse('{"__proto__":"v","constructor":"c","x-ok":"1"}') as Record<string, string>;
    const copy = copyRecord({ headers });
    expect(Object.entries(copy.headers)).toEqual([
      ['__proto__', 'v'],
      ['constructor', 'c'],
      ['x-ok', '1'],
    ]);
    expect(Object.getPrototypeOf(copy.headers)).toBe(Object.prototype);
  });
});
