import { bodyLines } from './consent-imports';

async function* chunks(...parts: Array<string | Buffer>) {
  for (const p of parts) yield typeof p === 'string' ? Buffer.from(p) : p;
}
const all = async (it: AsyncIterable<string>) => {
  const out: string[] = [];
  for await (const l of it) out.push(l);
  return out;
};

describe('the lines of an import body', () => {
  it('are split on LF across chunks, CR dropped, the last line without LF kept, empty lines kept (they are reported)', async () => {
    expect(await all(bodyLines(chunks('a\r\nb', 'c\n\nd')))).toEqual(['a', 'bc', '', 'd']);
    expect(await all(bodyLines(chunks('a\n')))).toEqual(['a']);
  });

  it('decode UTF-8 split across chunks', async () => {
    const bytes = Buffer.from('é\nü');
    expect(await all(bodyLines(chunks(bytes.subarray(0, 1), bytes.subarray(1))))).toEqual(['é', 'ü']);
  });

  it('cut a line past the limit just beyond it, never holding it whole', async () => {
    const long = 'x'.repeat(200_000);
    const [first, second] = await all(bodyLines(chunks(long.slice(0, 100_000), long.slice(100_000), '\nok')));
    expect(first!.length).toBe(32_769);
    expect(second).toBe('ok');
  });
});
