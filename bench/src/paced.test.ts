import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dueTimes, paced, quantile } from './paced';

describe('a paced offered load', () => {
  let server: Server;
  let url: string;
  const arrivals: { at: number; path: string; body: string }[] = [];
  let slow = new Set<string>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        arrivals.push({ at: performance.now(), path: req.url ?? '', body });
        const answer = () => {
          res.statusCode = req.url?.includes('refuse') ? 503 : 200;
          res.end('{}');
        };
        if (slow.has(req.url ?? '')) setTimeout(answer, req.url === '/x' ? 1000 : 300).unref();
        else answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    arrivals.length = 0;
    slow = new Set();
  });

  it('spreads the requests of each second evenly, where a burst would send them all at its start', async () => {
    let n = 0;
    const r = await paced({
      url,
      method: 'POST',
      rate: 100,
      durationSec: 1,
      connections: 10,
      next: () => ({ body: `b${n}`, path: `/p${n++}` }),
    });
    expect(r.total).toBe(100);
    expect(r.failed).toBe(0);
    expect(r.non2xx.size).toBe(0);
    // every request was sent once, with its own path and body (over 10 connections, so not in order)
    const order = (xs: string[]) => [...xs].sort((a, b) => Number(a.slice(2)) - Number(b.slice(2)));
    expect(order(arrivals.map((a) => a.path))).toEqual(Array.from({ length: 100 }, (_, i) => `/p${i}`));
    expect(arrivals.every((a) => a.body === `b${a.path.slice(2)}`)).toBe(true);
    // 10 ms apart: in any 100 ms window about 10 arrive (a burst would put 100 in the first few ms)
    const first = arrivals[0]!.at;
    const windows = new Map<number, number>();
    for (const a of arrivals) windows.set(Math.floor((a.at - first) / 100), (windows.get(Math.floor((a.at - first) / 100)) ?? 0) + 1);
    expect(Math.max(...windows.values())).toBeLessThanOrEqual(20);
    expect(arrivals.at(-1)!.at - first).toBeGreaterThan(900);
  });

  it("counts a request's latency from when it was due, so that queueing behind a slow answer shows", async () => {
    // one connection: the request after a 300 ms answer waits for it, and its latency says so
    let n = 0;
    slow = new Set(['/p0']);
    const r = await paced({ url, method: 'GET', rate: 50, durationSec: 1, connections: 1, next: () => ({ path: `/p${n++}` }) });
    expect(r.total).toBe(50);
    expect(r.p99Ms).toBeGreaterThanOrEqual(290);
    // the requests due during the slow answer queued: more than one waited over 200 ms
    expect(r.p50Ms).toBeLessThan(r.p99Ms);
  });

  it('counts answers other than 2xx by status', async () => {
    const r = await paced({ url: `${url}?refuse=1`, method: 'GET', rate: 20, durationSec: 0.5, connections: 2 });
    expect(r.total).toBe(10);
    expect([...r.non2xx]).toEqual([[503, 10]]);
  });

  it('counts a request that gets no answer within the timeout as failed', async () => {
    slow = new Set(['/x']);
    const r = await paced({ url, method: 'GET', rate: 4, durationSec: 0.5, connections: 2, timeoutSec: 0.1 });
    expect(r.failed).toBe(2);
    expect(r.total).toBe(0);
  });
});

describe('quantiles and due times', () => {
  it('takes the nearest rank', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(xs, 0.5)).toBe(50);
    expect(quantile(xs, 0.99)).toBe(99);
    expect(quantile(xs, 1)).toBe(100);
    expect(quantile([], 0.99)).toBe(0);
  });

  it('spaces the due times 1/rate apart', () => {
    expect(dueTimes(4, 1)).toEqual([0, 250, 500, 750]);
    expect(dueTimes(0.5, 1)).toEqual([]);
  });
});
