import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import { literalIp, type AddressPolicy } from '../domain/address-policy';
import { parseRetryAfter } from '../domain/retry';
import type { Sender, SendResult } from '../app/ports';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (injectable for tests). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export const USER_AGENT = 'Accord-Webhooks/0.1 (+https://www.standardwebhooks.com)';

/**
 * POSTs deliveries without server-side request forgery: the host is resolved once, every
 * resolved address must pass the policy, and the connection goes to that vetted address only
 * (the socket never resolves the name again, so DNS rebinding cannot switch it), while Host
 * and TLS SNI/certificate checks still use the URL's host name.
 */
export class SafeSender implements Sender {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 60_000 });
  private readonly httpsAgent: https.Agent;

  /**
   * HTTPS certificates are verified against Node's CA store (extend it for a private CA with
   * NODE_EXTRA_CA_CERTS) plus `extraCa`; never switched off.
   */
  constructor(private readonly opts: { policy: AddressPolicy; timeoutMs: number; resolve?: Resolver; extraCa?: string[] }) {
    this.httpsAgent = new https.Agent({
      keepAlive: true,
      maxSockets: 64,
      timeout: 60_000,
      ...(opts.extraCa?.length ? { ca: [...rootCertificates, ...opts.extraCa] } : {}),
    });
  }

  /** The vetted address to connect to, or a refusal. */
  async vet(hostname: string): Promise<{ address: string } | { refused: string }> {
    const literal = literalIp(hostname);
    let addresses: ResolvedAddress[];
    if (literal) addresses = [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
    else {
      try {
        addresses = await (this.opts.resolve ?? systemResolver)(hostname);
      } catch (err) {
        return { refused: `cannot resolve ${hostname}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
      }
    }
    if (!addresses.length) return { refused: `cannot resolve ${hostname}: no address` };
    // Every address must be acceptable: a name that also points inside is refused as a whole.
    for (const a of addresses) {
      const refusal = this.opts.policy.refusal(a.address);
      if (refusal) return { refused: `refused by the SSRF guard: ${hostname} resolves to ${refusal}` };
    }
    return { address: addresses[0]!.address };
  }

  async post(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { statusCode: 0, latencyMs: 0, error: 'invalid URL', retryAfterMs: null };
    }
    const vetted = await this.vet(url.hostname);
    if ('refused' in vetted) return { statusCode: 0, latencyMs: elapsed(), error: vetted.refused, retryAfterMs: null };

    const isHttps = url.protocol === 'https:';
    const payload = Buffer.from(body, 'utf8');
    const hostnameForTls = url.hostname.replace(/^\[|\]$/g, '');
    return new Promise<SendResult>((resolve) => {
      let finished = false;
      const finish = (r: SendResult) => {
        if (!finished) {
          finished = true;
          resolve(r);
        }
      };
      const req = (isHttps ? https : http).request({
        method: 'POST',
        host: vetted.address,
        port: url.port ? Number(url.port) : isHttps ? 443 : 80,
        path: `${url.pathname}${url.search}`,
        agent: isHttps ? this.httpsAgent : this.httpAgent,
        ...(isHttps && !literalIp(hostnameForTls) ? { servername: hostnameForTls } : {}),
        headers: {
          ...headers,
          host: url.host,
          'user-agent': USER_AGENT,
          'content-type': 'application/json',
          'content-length': String(payload.length),
        },
      });
      const timer = setTimeout(() => {
        req.destroy(new Error(`timed out after ${this.opts.timeoutMs} ms`));
      }, this.opts.timeoutMs);
      req.on('response', (res) => {
        const statusCode = res.statusCode ?? 0;
        const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
        // The answer counts once its head arrived; the body is drained (and cut at the deadline).
        res.on('end', () => clearTimeout(timer));
        res.on('error', () => clearTimeout(timer));
        res.resume();
        finish({ statusCode, latencyMs: elapsed(), error: '', retryAfterMs });
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        finish({ statusCode: 0, latencyMs: elapsed(), error: err.message || err.code || 'request failed', retryAfterMs: null });
      });
      req.end(payload);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
