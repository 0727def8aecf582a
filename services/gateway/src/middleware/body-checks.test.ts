import { duplicateKey, verifyJsonBody } from './body-checks';

describe('JSON bodies', () => {
  test.each([
    ['{"a":1,"a":2}', 'a'],
    ['[{"subject":"x"},{"subject":"y","action":true,"action":false}]', 'action'],
    ['{"a":{"b":1},"c":{"b":2,"b":3}}', 'b'],
    ['{"k\\u0065y":1,"key":2}', 'key'],
  ])('with a key twice in one object are refused: %s', (text, key) => {
    expect(duplicateKey(text)).toBe(key);
  });

  test.each([['{"a":1,"b":{"a":2}}'], ['[{"a":1},{"a":2}]'], ['{"a":"a","b":"a"}'], ['{"a":["a","a"]}'], ['{"a\\"":1,"a":2}']])(
    'with the same key only in different objects, or the same value twice, pass: %s',
    (text) => {
      expect(duplicateKey(text)).toBeNull();
    },
  );

  it('nested a hundred thousand levels deep are scanned without exhausting the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(duplicateKey(deep)).toBeNull();
  });

  it('that are not UTF-8 are refused as a 400 naming the body', () => {
    expect(() => verifyJsonBody(undefined, undefined, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))).toThrow(/not valid UTF-8/);
  });
});
