import { itWithBinary } from './testing';

// The helper is exercised by registering tests in a nested describe and inspecting what jest runs.
describe('tests that need a program', () => {
  const saved = process.env.CI;
  afterAll(() => {
    if (saved === undefined) delete process.env.CI;
    else process.env.CI = saved;
  });

  it('run as usual when the program is there', () => {
    expect(itWithBinary('/usr/bin/true', 'true')).toBe(it);
  });

  it('fail in CI when the program is missing, instead of being skipped', async () => {
    process.env.CI = 'true';
    let registered: (() => unknown) | undefined;
    const spy = jest.spyOn(global, 'it').mockImplementation(((_name: string, fn: () => unknown) => {
      registered = fn;
    }) as never);
    try {
      itWithBinary(undefined, 'nats-server')('needs NATS', () => undefined);
    } finally {
      spy.mockRestore();
    }
    expect(registered).toBeDefined();
    expect(() => registered!()).toThrow(/nats-server is not installed, and CI must run "needs NATS"/);
  });

  it('are skipped with the reason outside CI when the program is missing', () => {
    process.env.CI = 'false';
    const skipped: string[] = [];
    const spy = jest.spyOn(it, 'skip').mockImplementation(((name: string) => {
      skipped.push(name);
    }) as never);
    try {
      itWithBinary(undefined, 'nats-server')('needs NATS', () => undefined);
    } finally {
      spy.mockRestore();
    }
    expect(skipped).toEqual(['needs NATS (skipped: nats-server is not installed)']);
  });
});
