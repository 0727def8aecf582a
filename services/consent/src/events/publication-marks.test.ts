import { createLogger } from '@accord/common';
import { PublicationMarks } from './publication-marks';

function setUp(waitMs = 1000, fail = false) {
  const marked: string[][] = [];
  const marks = new PublicationMarks(
    {
      markPublished: async (ids) => {
        if (fail) throw new Error('database down');
        marked.push(ids);
      },
    },
    createLogger('test', 'silent'),
    waitMs,
  );
  return { marks, marked };
}

describe('publication marks', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('gives the log pass the ids it sequences, and marks the rest on their own once they waited long enough, in one update', async () => {
    const { marks, marked } = setUp();
    marks.add('a');
    marks.add('b');
    jest.advanceTimersByTime(500);
    marks.add('c');
    expect(marks.take(['b', 'x'])).toEqual(['b']);
    expect(marks.take(['b'])).toEqual([]);
    await jest.advanceTimersByTimeAsync(500);
    // a waited 1 s; c only 0.5 s
    expect(marked).toEqual([['a']]);
    await jest.advanceTimersByTimeAsync(500);
    expect(marked).toEqual([['a'], ['c']]);
    await jest.advanceTimersByTimeAsync(5000);
    expect(marked).toHaveLength(2);
  });

  it('marks at once what a failed log write gave back, and everything on flush', async () => {
    const { marks, marked } = setUp(60_000);
    marks.add('a');
    marks.add('b');
    marks.add('c');
    const taken = marks.take(['a', 'b']);
    marks.restore(taken);
    await jest.advanceTimersByTimeAsync(0);
    expect(marked).toEqual([['a', 'b']]);
    await marks.flush();
    expect(marked).toEqual([['a', 'b'], ['c']]);
    await marks.drained();
  });

  it('marks a thousand waiting ids at once, whatever their age', async () => {
    const { marks, marked } = setUp(60_000);
    for (let i = 0; i < 1000; i++) marks.add(`e${i}`);
    await jest.advanceTimersByTimeAsync(0);
    expect(marked.map((m) => m.length)).toEqual([1000]);
  });

  it('logs a failed mark and goes on: the events are published again after their lease, de-duplicated', async () => {
    const { marks } = setUp(10, true);
    marks.add('a');
    await jest.advanceTimersByTimeAsync(20);
    await expect(marks.flush()).resolves.toBeUndefined();
  });
});
