import { formatCpu, labelOf, perRequest, sampleCpu } from './cpu';

describe('CPU per request by process', () => {
  it('names the stack processes from their command lines', () => {
    expect(labelOf('/usr/bin/node /r/services/gateway/dist/main.js', 10, 1)).toBe('gateway');
    expect(labelOf('/usr/bin/node /r/services/consent/dist/main.js', 11, 1)).toBe('consent');
    expect(labelOf('java -Xmx1g -cp x de.bwaldvogel.mongo.Main', 12, 1)).toBe('database');
    expect(labelOf('/usr/sbin/nats-server -js -p 4222', 13, 1)).toBe('nats');
    expect(labelOf('/usr/bin/node /r/bench/dist/ceiling.js', 14, 1)).toBe('ceiling app');
    expect(labelOf('/usr/bin/node /r/bench/dist/run.js', 1, 1)).toBe('bench (load generator)');
    expect(labelOf('/usr/bin/node /r/bench/peers/c15t/server.mjs', 15, 1)).toBe('c15t');
    expect(labelOf('/usr/lib/postgresql/15/bin/postgres -D /tmp/x/data -k /tmp/x', 16, 1)).toBe('postgres');
    expect(labelOf('postgres: postgres postgres [local] idle', 17, 1)).toBe('postgres');
    expect(labelOf('/root/.cache/accord/tools/bin/hydra serve all --dev --sqa-opt-out', 18, 1)).toBe('hydra');
  });

  it("names BENCH_STRESS's stress-ng and its workers apart, so that no request is charged for them", () => {
    expect(labelOf('stress-ng --cpu 2 --quiet', 19, 1)).toBe('stress-ng');
    expect(labelOf('stress-ng-cpu [run]', 20, 1)).toBe('stress-ng');
  });

  it('divides the CPU spent between two samples by the requests completed', () => {
    const before = new Map([
      ['gateway', 1000],
      ['consent', 500],
    ]);
    const after = new Map([
      ['gateway', 1600],
      ['consent', 500],
      ['database', 300],
    ]);
    expect(perRequest(before, after, 300)).toEqual({ gateway: 2, database: 1 });
    expect(perRequest(before, after, 0)).toBeUndefined();
    expect(formatCpu({ gateway: 2, database: 1 })).toBe('gateway 2.00 · database 1.00 = 3.00 ms CPU per request');
  });

  it('samples this process on Linux', () => {
    const s = sampleCpu();
    if (process.platform !== 'linux') return expect(s).toBeUndefined();
    expect(s?.get('bench (load generator)')).toBeGreaterThanOrEqual(0);
  });
});
