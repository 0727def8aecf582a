// A steady consent load through the gateway: a few clients, each posting one consent event at a
// time, as long as it runs. Every answer is counted; the ids answered 201 are what must never be
// lost.
//
// The clients keep their connections as a load balancer in front of the gateway should: an idle
// connection is left after 500 ms, less than the 1 s a stopping gateway waits before it closes the
// connections still idle (docs/kubernetes.md, "Shutdown"). HTTP/1.1 has no way to close an idle
// connection without a race: a client that keeps one longer (undici's default follows the gateway's
// `Keep-Alive: timeout=65` hint) may send a POST into it just as it closes, and a POST cannot be
// retried blindly — the one failure of an upgrade in CI (1 of ~1,000, "other side closed").

import { Agent, fetch } from 'undici';

const pool = new Agent({ keepAliveTimeout: 500, keepAliveMaxTimeout: 500 });

export interface LoadResult {
  /** Requests sent. */
  sent: number;
  /** Ids of the events answered 201. */
  created: string[];
  /** Every other outcome: a status other than 201, or a request that failed. */
  failures: string[];
}

export interface Load {
  stop(): Promise<LoadResult>;
  /** Requests answered so far (201 or not). */
  answered(): number;
}

export function startLoad(opts: { baseUrl: string; token: string; apiKey: string; clients?: number; label: string }): Load {
  const result: LoadResult = { sent: 0, created: [], failures: [] };
  let running = true;
  let n = 0;
  const client = async (c: number) => {
    while (running) {
      const subject = `${opts.label}-${c}-${n++}`;
      result.sent++;
      try {
        const res = await fetch(`${opts.baseUrl}/consent/v0/consents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${opts.token}`, 'x-api-key': opts.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ subject, issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true }),
          signal: AbortSignal.timeout(30_000),
          dispatcher: pool,
        });
        const body = await res.text();
        if (res.status === 201) result.created.push((JSON.parse(body) as { id: string }).id);
        else result.failures.push(`${new Date().toISOString()} ${subject}: ${res.status} ${body.slice(0, 200)}`);
      } catch (err) {
        result.failures.push(
          `${new Date().toISOString()} ${subject}: ${(err as Error).message}${(err as { cause?: Error }).cause ? ` (${(err as { cause: Error }).cause.message})` : ''}`,
        );
      }
    }
  };
  const clients = Array.from({ length: opts.clients ?? 4 }, (_, c) => client(c));
  return {
    answered: () => result.created.length + result.failures.length,
    async stop() {
      running = false;
      await Promise.all(clients);
      return result;
    },
  };
}
