import { PeriodicTask, type PeriodicTaskOptions } from './periodic-task';

/** A run the test ends by hand. */
function gate<R>(): { promise: Promise<R>; open(value: R): void; fail(err: Error): void } {
  let open!: (value: R) => void;
  let fail!: (err: Error) => void;
  const promise = new Promise<R>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** Asserts that `run` is called again exactly `ms` from now, not a millisecond sooner. */
async function expectNextRunIn(run: jest.Mock, ms: number): Promise<void> {
  const before = run.mock.calls.length;
  await jest.advanceTimersByTimeAsync(ms - 1);
  expect(run).toHaveBeenCalledTimes(before);
  await jest.advanceTimersByTimeAsync(1);
  expect(run).toHaveBeenCalledTimes(before + 1);
}

function task<R>(opts: Partial<PeriodicTaskOptions<R>> & Pick<PeriodicTaskOptions<R>, 'run'>) {
  const logger = { warn: jest.fn() };
  const t = new PeriodicTask<R>({ next: () => 1_000, logger, failure: 'run failed', ...opts });
  return { t, logger };
}

describe('PeriodicTask', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  test('runs at start, then again after the pause next() gives for each result', async () => {
    const results = [3, 0, 0];
    const run = jest.fn(async () => results.shift() ?? 0);
    const next = jest.fn((n: number | undefined) => (n ? 10 : 100));
    const { t } = task({ run, next });
    t.start();
    expect(run).not.toHaveBeenCalled(); // never inside the caller
    await jest.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    await expectNextRunIn(run, 10);
    await expectNextRunIn(run, 100);
    expect(next.mock.calls.map(([n]) => n)).toEqual([3, 0, 0]);
    await t.stop();
  });

  test('a failed run is logged once and the loop goes on with next(undefined)', async () => {
    let calls = 0;
    const run = jest.fn(async () => {
      if (++calls === 1) throw new Error('boom');
      return 1;
    });
    const next = jest.fn(() => 50);
    const { t, logger } = task({ run, next });
    t.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(logger.warn).toHaveBeenCalledWith({ err: expect.objectContaining({ message: 'boom' }) }, 'run failed');
    expect(next).toHaveBeenLastCalledWith(undefined);
    await expectNextRunIn(run, 50);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    await t.stop();
  });

  test('runIn replaces the planned run, earlier or later', async () => {
    const run = jest.fn(async () => 0);
    const { t } = task({ run });
    t.runIn(500);
    expect(t.plannedAt).toBe(500);
    t.runIn(20);
    expect(t.plannedAt).toBe(20);
    await jest.advanceTimersByTimeAsync(20);
    expect(run).toHaveBeenCalledTimes(1);
    expect(t.plannedAt).toBe(1_020);
    t.runIn(5_000);
    await expectNextRunIn(run, 5_000);
    await t.stop();
  });

  test('runs never overlap: a plan falling due during a run starts the next run right after it', async () => {
    const g = gate<number>();
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    const run = jest.fn(async () => {
      most = Math.max(most, ++inFlight);
      const n = ++calls === 1 ? await g.promise : 0;
      inFlight--;
      return n;
    });
    const { t } = task({ run });
    t.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(t.running).toBe(true);
    expect(t.plannedAt).toBe(Infinity);
    t.runIn(10);
    await jest.advanceTimersByTimeAsync(50);
    expect(run).toHaveBeenCalledTimes(1);
    g.open(1);
    await jest.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
    expect(most).toBe(1);
    await t.stop();
  });

  test('a plan made during a run, not yet due when it ends, stands instead of next()', async () => {
    const g = gate<number>();
    let calls = 0;
    const run = jest.fn(() => (++calls === 1 ? g.promise : Promise.resolve(0)));
    const next = jest.fn(() => 10);
    const { t } = task({ run, next });
    t.start();
    await jest.advanceTimersByTimeAsync(0);
    t.runIn(300);
    g.open(1);
    await jest.advanceTimersByTimeAsync(0);
    expect(next).toHaveBeenCalledWith(1); // told anyway: owners keep their own state from it
    expect(t.plannedAt).toBe(300);
    await expectNextRunIn(run, 300);
    await t.stop();
  });

  test('stop waits for the run under way, then nothing runs again', async () => {
    const g = gate<number>();
    const run = jest.fn(() => g.promise);
    const { t } = task({ run, next: () => 0 });
    t.start();
    await jest.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = t.stop().then(() => (stopped = true));
    expect(t.stopped).toBe(true);
    await jest.advanceTimersByTimeAsync(10);
    expect(stopped).toBe(false);
    g.open(1);
    await stopping;
    t.runIn(0);
    t.start();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(t.plannedAt).toBe(Infinity);
  });

  test('stop before any run cancels the plan and resolves at once', async () => {
    const run = jest.fn(async () => 0);
    const { t } = task({ run });
    t.runIn(10);
    await t.stop();
    await jest.advanceTimersByTimeAsync(100);
    expect(run).not.toHaveBeenCalled();
  });

  test('a run that throws synchronously neither stops the loop nor leaves it marked running', async () => {
    const run = jest.fn((): Promise<number> => {
      throw new Error('sync');
    });
    const { t, logger } = task({ run, next: () => 5 });
    t.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(t.running).toBe(false);
    await expectNextRunIn(run, 5);
    expect(logger.warn).toHaveBeenCalledTimes(2);
    await t.stop();
  });
});
