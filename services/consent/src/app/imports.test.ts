import { buildEvents, stateKey, validateInputs } from '../domain/consent';
import { accountErasureKey, pseudonym } from '../domain/erasure';
import { memoryConsentStore } from '../store/memory/store';
import { eraseSubject } from './erasure';
import { Imports } from './imports';

const ISSUER = 'https://shop.example';
const TARGET = 'https://shop.example/privacy';
const rec = (o: Record<string, unknown>) =>
  JSON.stringify({ subject: 'u-1', issuer: ISSUER, target: TARGET, action: true, createdAt: '2019-05-01T10:00:00.000Z', ...o });
const lines = (texts: string[], from = 1) => texts.map((text, i) => ({ number: from + i, text }));

describe('an import', () => {
  it('stores each valid line once with its original time, refuses bad lines by line and field, and counts duplicates when resumed', async () => {
    const store = memoryConsentStore();
    const imports = new Imports(store, { ratePerSecond: 0 });
    const job = await imports.start('acc', 'app', 'ndjson');
    const texts = [
      rec({ externalId: 'a' }),
      rec({ createdAt: '2030-01-01T00:00:00Z' }),
      'not json',
      rec({ externalId: 'b', action: false, createdAt: '2020-01-01T00:00:00.000Z' }),
    ];
    let j = await imports.lines('acc', job.id, lines(texts.slice(0, 2)));
    expect(j).toMatchObject({ state: 'running', read: 2, stored: 1, refused: 1 });
    j = await imports.lines('acc', job.id, lines(texts.slice(2), 3));
    expect(j).toMatchObject({ read: 4, stored: 2, duplicates: 0, refused: 2 });
    expect(j.errors).toEqual([
      { line: 2, field: 'createdAt', detail: 'must not be later than now' },
      { line: 3, field: '', detail: 'is not valid JSON' },
    ]);
    expect((await imports.finish('acc', job.id)).state).toBe('done');
    // the same file again: nothing stored twice
    const again = await imports.start('acc', 'app', 'ndjson');
    j = await imports.lines('acc', again.id, lines(texts));
    expect(j).toMatchObject({ read: 4, stored: 0, duplicates: 2, refused: 2 });
    // the current state is the newest createdAt (2020's decline), and the events keep their times
    const cur = await store.current.byKeys('acc', [stateKey('acc', 'u-1', ISSUER, TARGET, 'default')]);
    const now = [...cur.values()][0]!;
    expect(now.action).toBe(false);
    expect(now.createdAt.toISOString()).toBe('2020-01-01T00:00:00.000Z');
    expect(now.importedAt).toBeInstanceOf(Date);
    // another account sees none of it
    await expect(imports.get('other', job.id)).rejects.toThrow('No such import');
  });

  it('after the subject is erased, posting the file again stores nothing in clear: the lines are duplicates of the erased events', async () => {
    const store = memoryConsentStore();
    const key = accountErasureKey('secret-of-the-installation-for-tests-only', 'acc');
    const imports = new Imports(store, { ratePerSecond: 0, erasureKeyOf: (a) => accountErasureKey('secret-of-the-installation-for-tests-only', a) });
    const texts = [rec({ subject: 'gina', externalId: 'gina@example.com-1' }), rec({ subject: 'gina', scope: 'sms' }), rec({ subject: 'ivo' })];
    const first = await imports.start('acc', 'app', 'ndjson');
    expect(await imports.lines('acc', first.id, lines(texts))).toMatchObject({ stored: 3 });
    expect(await eraseSubject(store.erasure, 'acc', 'gina', undefined, key, new Date())).toMatchObject({ events: 2 });
    // the keys held the externalId and a hash of gina's line: both replaced by keyed hashes
    const erased = await store.erasure.inClear('acc', pseudonym(key, 'gina'), undefined, 10);
    expect(erased.map((e) => e.importKey)).toEqual([expect.stringMatching(/^acc\/e:/), expect.stringMatching(/^acc\/e:/)]);
    expect(JSON.stringify(erased)).not.toContain('gina@example.com');
    const again = await imports.start('acc', 'app', 'ndjson');
    expect(await imports.lines('acc', again.id, lines(texts))).toMatchObject({ read: 3, stored: 0, duplicates: 3 });
    expect(await store.erasure.inClear('acc', 'gina', undefined, 10)).toEqual([]);
  });

  it('never lets an old imported event replace a newer live one', async () => {
    const store = memoryConsentStore();
    const [live] = buildEvents('acc', 'app', validateInputs([{ subject: 'u-1', issuer: ISSUER, target: TARGET, action: false }]));
    await store.events.insert([[live!]], new Date());
    await store.current.apply([live!]);
    const imports = new Imports(store, { ratePerSecond: 0 });
    const job = await imports.start('acc', 'app', 'ndjson');
    expect(await imports.lines('acc', job.id, lines([rec({ action: true })]))).toMatchObject({ stored: 1 });
    const cur = await store.current.byKeys('acc', [stateKey('acc', 'u-1', ISSUER, TARGET, 'default')]);
    expect([...cur.values()][0]!.id).toBe(live!.id);
  });

  it('reads CSV under its header row; a bad header fails the import naming the column', async () => {
    const store = memoryConsentStore();
    const imports = new Imports(store, { ratePerSecond: 0 });
    const job = await imports.start('acc', 'app', 'csv');
    const j = await imports.lines(
      'acc',
      job.id,
      lines([
        'subject,issuer,target,action,createdAt',
        `u-2,${ISSUER},${TARGET},true,2021-03-04T05:06:07Z`,
        `u-3,${ISSUER},${TARGET},perhaps,2021-03-04T05:06:07Z`,
      ]),
    );
    expect(j).toMatchObject({ read: 2, stored: 1, refused: 1, errors: [{ line: 3, field: 'action' }] });
    const bad = await imports.start('acc', 'app', 'csv');
    const f = await imports.lines('acc', bad.id, lines(['subject,issuer,target,colour']));
    expect(f.state).toBe('failed');
    expect(f.errors.map((e) => [e.line, e.field])).toEqual(
      expect.arrayContaining([
        [1, 'colour'],
        [1, 'action'],
        [1, 'createdAt'],
      ]),
    );
    await expect(imports.lines('acc', bad.id, lines(['x'], 2))).rejects.toThrow('This import is failed');
  });

  it('keeps the first 1,000 errors and waits for the operator’s rate', async () => {
    const store = memoryConsentStore();
    const clock = Date.parse('2026-11-27T09:00:00Z');
    const slept: number[] = [];
    const imports = new Imports(
      store,
      { ratePerSecond: 100 },
      undefined,
      () => clock,
      async (ms) => void slept.push(ms),
    );
    const job = await imports.start('acc', 'app', 'ndjson');
    for (let b = 0; b < 2; b++)
      await imports.lines(
        'acc',
        job.id,
        lines(
          Array.from({ length: 600 }, () => 'x'),
          b * 600 + 1,
        ),
      );
    const j = await imports.get('acc', job.id);
    expect(j.refused).toBe(1200);
    expect(j.errors).toHaveLength(1000);
    expect(j.errors.at(-1)!.line).toBe(1000);
    await imports.lines('acc', job.id, lines([rec({ externalId: 'r1' }), rec({ externalId: 'r2' })], 2000));
    await imports.lines('acc', job.id, lines([rec({ externalId: 'r3' })], 2002));
    expect(slept).toEqual([20]);
  });

  it('takes batches side by side: counts add up, errors come in line order, each batch says what it stored', async () => {
    const store = memoryConsentStore();
    const imports = new Imports(store, { ratePerSecond: 0 });
    const job = await imports.start('acc', 'app', 'ndjson');
    const [second, first] = await Promise.all([
      imports.lines('acc', job.id, lines([rec({ externalId: 'p3' }), 'bad'], 3)),
      imports.lines('acc', job.id, lines([rec({ externalId: 'p1' }), 'bad'], 1)),
    ]);
    expect([first!.batchStored, second!.batchStored]).toEqual([1, 1]);
    const j = await imports.get('acc', job.id);
    expect(j).toMatchObject({ read: 4, stored: 2, refused: 2 });
    expect(j.errors.map((e) => e.line)).toEqual([2, 4]);
  });
});
