import { goalChecks, jobs, ratio } from './compare';
import type { BenchResult } from './measure';

const result = (name: string, requestsPerSec: number): BenchResult => ({ name, requestsPerSec, p50Ms: 1, p99Ms: 2, errors: 0 });

describe('the side-by-side table', () => {
  it('gives Accord ÷ each peer run and the ceiling, and nothing for a missing or zero figure', () => {
    expect(ratio(result('accord', 600), result('c15t', 300))).toBe('2.00');
    expect(ratio(result('accord', 600), result('ceiling', 0))).toBe('');
    expect(ratio(undefined, result('c15t', 300))).toBe('');
  });

  it('pairs each job with its peer and says why a peer was not measured', () => {
    const record = result('c15t POST /subjects (durable commits)', 300);
    const read = result('c15t GET /subjects/:id (durable commits)', 700);
    const list = jobs(
      { record: result('accord post', 600) },
      {},
      { c15t: { runs: [{ label: 'durable commits', settings: '', record, read }] }, hydra: { missing: 'Ory Hydra is not built' } },
    );
    expect(list.map((j) => [j.job, j.peers.map((p) => p.name), j.peerMissing])).toEqual([
      ['record one consent', [record.name], undefined],
      ['read the current consent', [read.name], undefined],
      ['token (client_credentials)', [], 'Ory Hydra is not built'],
    ]);
    expect(list[0]!.goals).toEqual({ peer: 2, ceiling: 0.5 });
  });
});

describe("the issue's goals", () => {
  const c15t = (name: string, rps: number, stressedRps: number): BenchResult => ({ ...result(name, rps), stressed: { ...result(name, stressedRps) } });

  it('checks each against the faster peer run, the ceiling, half-peak p99 and the run under stress-ng', () => {
    const record: BenchResult = {
      ...result('accord post', 600),
      halfPeak: { ...result('', 300), p99Ms: 40.3, offeredPerSec: 300 },
      stressed: result('', 200),
    };
    const read: BenchResult = { ...result('accord read', 500), halfPeak: { ...result('', 250), p99Ms: 60, offeredPerSec: 250 } };
    const list = jobs(
      { record, read },
      { record: result('ceiling', 1000) },
      {
        c15t: {
          runs: [
            { label: 'durable commits', settings: '', record: c15t('durable', 250, 100), read: result('read durable', 300) },
            { label: 'fsync=off', settings: '', record: c15t('fsync=off', 280, 120), read: result('read fsync=off', 200) },
          ],
        },
        hydra: { missing: 'not built' },
      },
    );
    const array: BenchResult = { ...result('array', 210), eventsPerRequest: 100 };
    expect(goalChecks(list, array)).toEqual([
      { goal: 'record one consent: ≥ 2 × the faster c15t', measured: '2.14 (600 ÷ 280 req/s)', met: true },
      { goal: 'record one consent: ≥ 0.5 of the ceiling', measured: '0.60 (600 ÷ 1000 req/s)', met: true },
      { goal: 'read the current consent: ≥ 2 × the faster c15t', measured: '1.67 (500 ÷ 300 req/s)', met: false },
      { goal: 'array of 100: ≥ 20,000 events/s', measured: '21,000 events/s', met: true },
      { goal: 'record one consent: p99 ≤ 50 ms at half the peak rate', measured: '40 ms at 300/s', met: true },
      { goal: 'read the current consent: p99 ≤ 50 ms at half the peak rate', measured: '60 ms at 250/s', met: false },
      // under stress the faster c15t is the fsync=off run (120): 200 ÷ 120 = 1.67 < 600 ÷ 280 = 2.14
      { goal: 'record one consent: Accord ÷ c15t with stress-ng beside no worse than without', measured: '1.67 with, 2.14 without', met: false },
    ]);
  });
});
