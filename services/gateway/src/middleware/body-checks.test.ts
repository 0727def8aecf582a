import { duplicateKey, loneSurrogates, verifyForm, verifyJsonBody } from './body-checks';

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

describe('strings of JSON bodies that are not Unicode text', () => {
  test.each([
    ['{"subject":"u-\\ud800"}', [{ field: '/subject', unit: 0xd800 }]],
    ['{"subject":"u-\\udbff","issuer":"i"}', [{ field: '/subject', unit: 0xdbff }]],
    ['{"subject":"\\udc00 after nothing"}', [{ field: '/subject', unit: 0xdc00 }]],
    ['[{"subject":"ok"},{"target":"t-\\ud800x"}]', [{ field: '/1/target', unit: 0xd800 }]],
    [
      '{"items":[{"scope":"\\ud83d"},{"delegate":"a\\ude00b"}]}',
      [
        { field: '/items/0/scope', unit: 0xd83d },
        { field: '/items/1/delegate', unit: 0xde00 },
      ],
    ],
    [
      '{"headers":{"x-\\ud800":"v","a/b~\\udfff":"w"}}',
      [
        { field: '/headers/x-\ud800', unit: 0xd800 },
        { field: '/headers/a~1b~0\udfff', unit: 0xdfff },
      ],
    ],
    ['"\\ud800"', [{ field: '/', unit: 0xd800 }]],
  ])('are named by their JSON pointer, keys too: %s', (text, expected) => {
    expect(loneSurrogates(JSON.parse(text))).toEqual(expected);
  });

  test.each([
    ['{"subject":"\\ud83d\\ude00 paired"}'],
    ['{"subject":"\\\\ud800 a backslash, then letters"}'],
    ['{"subject":"u-\\ufffd"}'],
    ['[1,true,null,{"a":[]}]'],
  ])('are none when every surrogate is paired (or none was escaped): %s', (text) => {
    expect(loneSurrogates(JSON.parse(text))).toEqual([]);
  });

  it('are found a hundred thousand levels deep without exhausting the stack', () => {
    const deep = '['.repeat(100_000) + '"\\ud800"' + ']'.repeat(100_000);
    expect(loneSurrogates(JSON.parse(deep))).toEqual([{ field: '/0'.repeat(100_000), unit: 0xd800 }]);
  });
});

describe('form bodies', () => {
  const verify = (body: string, type = 'application/x-www-form-urlencoded') => {
    try {
      verifyForm({ headers: { 'content-type': type } }, undefined, Buffer.from(body));
    } catch (err) {
      return (err as { errors: Array<{ field: string; message: string }> }).errors;
    }
    return [];
  };

  it('whose percent-escapes are not UTF-8 are refused, naming each field (the parser would keep the escapes as text)', () => {
    expect(verify('subject=u-%ED%A0%80&issuer=i&target=%FF&scope=100%')).toEqual([
      { field: '/subject', message: 'is not valid percent-encoded UTF-8' },
      { field: '/target', message: 'is not valid percent-encoded UTF-8' },
      { field: '/scope', message: 'is not valid percent-encoded UTF-8' },
    ]);
    expect(verify('%FF=1')).toEqual([{ field: '/%FF', message: 'is not valid percent-encoded UTF-8' }]);
  });

  it('with a field named __proto__ are refused (the parser would drop it without a word); constructor and toString pass', () => {
    expect(verify('subject=s&__proto__=x')).toEqual([{ field: '/__proto__', message: 'is not a known field' }]);
    expect(verify('constructor=c&toString=t&%5F%5Fproto%5F%5F=x')).toEqual([{ field: '/__proto__', message: 'is not a known field' }]);
  });

  it('that are valid pass: escapes of UTF-8, plus signs, empty values, and ISO-8859-1 ones when the charset says so', () => {
    expect(verify('subject=u-%C3%A9+x&issuer=&target=a%2Fb&action')).toEqual([]);
    expect(verify('subject=%E9', 'application/x-www-form-urlencoded; charset=ISO-8859-1')).toEqual([]);
  });
});
