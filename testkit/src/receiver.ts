import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  /** Names and values as received, in order (IncomingHttpHeaders has no room for a header named `__proto__`). */
  rawHeaders: string[];
  body: string;
  /** The `webhook-id` header (Standard Webhooks). */
  webhookId: string;
  at: number;
}

/** An answer: a status with optional headers, after an optional delay; or 'hang' (never answers). */
export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * A real HTTP receiver for webhooks on 127.0.0.1: records every request, and `respond` decides
 * each answer from the request and its number (1, 2, …); default 204.
 */
export async function startReceiver(respond: (r: Received, n: number) => Answer = () => ({ status: 204 })) {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
        webhookId: String(req.headers['webhook-id']),
        at: Date.now(),
      };
      received.push(r);
      const a = respond(r, received.length);
      for (const w of waiters.splice(0)) w();
      if (a === 'hang') return;
      const send = () => {
        res.writeHead(a.status, a.headers ?? {});
        res.end();
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    /** The bodies received so far, parsed as JSON. */
    bodies: <T = { type: string; text?: string; data: Record<string, unknown> }>() => received.map((r) => JSON.parse(r.body) as T),
    /** Waits until at least n requests arrived. */
    async waitFor(n: number, timeoutMs = 20_000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${n} requests in ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
