import { jobs, ratio } from './compare';
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
