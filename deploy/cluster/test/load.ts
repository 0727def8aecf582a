// A steady consent load through the gateway: a few clients, each posting one consent event at a
// time, as long as it runs. Every answer is counted; the ids answered 201 are what must never be
// lost.

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
