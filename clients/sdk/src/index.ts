/**
 * @accord/sdk: a typed client for Accord (Node 20+ and browsers). Every REST operation is typed
 * from the OpenAPI document (`api`, an openapi-fetch client); around it: token handling, the
 * `x-api-key`, timeouts, retries where they are safe, the `Link` cursor as an async iterator and
 * the consent `source` filled in.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths } from './schema';
export type Problem = components['schemas']['Problem'];
export type ConsentEvent = components['schemas']['ConsentEvent'];
/**
 * The media types `api` types its answers by: every one the document names but the JSON-LD views
 * (`application/ld+json`, asked with `format=jsonld`), so that `data` of a JSON answer stays the JSON
 * schema; a JSON-LD answer is read with `parseAs` or plain `fetch`.
 */
export type SdkMedia = 'application/json' | 'application/problem+json' | 'application/x-ndjson' | 'text/csv' | 'text/html';
export type ConsentInput = components['schemas']['ConsentInput'];
export type SubjectLink = components['schemas']['SubjectLink'];
export type SubjectLinkRequest = components['schemas']['SubjectLinkRequest'];

export const SDK_VERSION = '0.1.0';

export interface AccordOptions {
  /** The gateway, e.g. http://127.0.0.1:8080 (no trailing slash needed). */
  baseUrl: string;
  /** Client credentials (backends only): tokens are fetched, refreshed before expiry and renewed once on a 401. */
  clientId?: string;
  clientSecret?: string;
  /** Space-separated scopes to ask for (default: all of the application's). */
  scope?: string;
  /** The account's API key (backends only; required on /consent/v0). */
  apiKey?: string;
  /** A fixed bearer token instead of client credentials: an access token, or a consent session token in a browser. */
  token?: string;
  /** Per attempt (default 10 000 ms). */
  timeoutMs?: number;
  /** Extra attempts for GET/HEAD on network errors, 429, 502, 503, 504 (default 2). Never for writes. */
  retries?: number;
  /** The consent `source` when an event has none (default `accord-sdk-js/<version>`, plus the page URL in a browser). */
  source?: string;
  fetch?: typeof fetch;
}

/** An error answer of the API, with its RFC 9457 problem. */
export class AccordError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem> & Record<string, unknown>,
  ) {
    super(`${status} ${String(problem.title ?? '')}${problem.detail ? `: ${String(problem.detail)}` : ''}`);
    this.name = 'AccordError';
  }
}

const SAFE = new Set(['GET', 'HEAD']);
const RETRY_STATUS = new Set([429, 502, 503, 504]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The default consent source: the SDK and, in a browser, the page (without its query and fragment). */
export function defaultSource(): string {
  const loc = (globalThis as { location?: { origin?: string; pathname?: string } }).location;
  const page = loc?.origin && loc.origin !== 'null' ? ` ${loc.origin}${loc.pathname ?? ''}` : '';
  return `accord-sdk-js/${SDK_VERSION}${page}`.slice(0, 1024);
}

/** Adds `source` to every event of a consent POST body that has none (an object or an array). */
export function withSource<T>(body: T, source: string): T {
  const fill = (e: unknown) => (e && typeof e === 'object' && !Array.isArray(e) && !(e as ConsentInput).source ? { ...(e as object), source } : e);
  return (Array.isArray(body) ? body.map(fill) : fill(body)) as T;
}

/** Fetches and caches access tokens (client credentials, then refresh tokens), refreshing 30 s before expiry. */
class Tokens {
  private current?: { token: string; until: number; refresh?: string };
  private pending?: Promise<string>;
  constructor(
    private readonly o: AccordOptions & { fetch: typeof fetch },
    private readonly now = () => Date.now(),
  ) {}

  get(): Promise<string> {
    if (this.current && this.current.until > this.now()) return Promise.resolve(this.current.token);
    this.pending ??= this.fetchToken().finally(() => (this.pending = undefined));
    return this.pending;
  }
  invalidate(): void {
    if (this.current) this.current.until = 0;
  }
  private async fetchToken(): Promise<string> {
    const body = new URLSearchParams({ client_id: this.o.clientId!, client_secret: this.o.clientSecret! });
    const refresh = this.current?.refresh;
    body.set('grant_type', refresh ? 'refresh_token' : 'client_credentials');
    if (refresh) body.set('refresh_token', refresh);
    if (this.o.scope) body.set('scope', this.o.scope);
    const res = await this.o.fetch(`${this.o.baseUrl}/oauth/v0/token`, { method: 'POST', body, signal: AbortSignal.timeout(this.o.timeoutMs ?? 10_000) });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) {
      if (refresh) {
        this.current = undefined; // the refresh token is spent or revoked: start a new grant
        return this.fetchToken();
      }
      throw new AccordError(res.status, { title: String(json.error ?? 'token request failed'), detail: String(json.error_description ?? '') });
    }
    const expiresIn = Number(json.expires_in ?? 0);
    this.current = {
      token: String(json.access_token),
      until: this.now() + Math.max(0, expiresIn - 30) * 1000,
      refresh: json.refresh_token as string | undefined,
    };
    return this.current.token;
  }
}

export class Accord {
  /** Every REST operation, typed: `accord.api.GET('/consent/v0/consents/{id}', { params: { path: { id } } })`. */
  readonly api: Client<paths, SdkMedia>;
  readonly baseUrl: string;
  private readonly tokens?: Tokens;
  private readonly send: (req: Request) => Promise<Response>;

  constructor(private readonly o: AccordOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, '');
    const baseFetch = o.fetch ?? globalThis.fetch.bind(globalThis);
    if (o.clientId && o.clientSecret) this.tokens = new Tokens({ ...o, baseUrl: this.baseUrl, fetch: baseFetch });
    const source = o.source ?? defaultSource();
    const retries = o.retries ?? 2;
    const timeoutMs = o.timeoutMs ?? 10_000;

    this.send = async (input: Request) => {
      let req = input;
      if (req.method === 'POST' && new URL(req.url).pathname.endsWith('/consent/v0/consents') && /json/.test(req.headers.get('content-type') ?? '')) {
        const body: unknown = await req.clone().json();
        req = new Request(req, { body: JSON.stringify(withSource(body, source)) });
      }
      let renewed = false;
      for (let attempt = 0; ; attempt++) {
        const r = req.clone();
        const headers = new Headers(r.headers);
        const token = this.tokens ? await this.tokens.get() : o.token;
        if (token) headers.set('authorization', `Bearer ${token}`);
        if (o.apiKey) headers.set('x-api-key', o.apiKey);
        const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(input.signal ? [input.signal] : [])]);
        const safe = SAFE.has(r.method);
        let res: Response;
        try {
          res = await baseFetch(new Request(r, { headers, signal }));
        } catch (err) {
          if (safe && attempt < retries && !input.signal?.aborted) {
            await sleep(200 * 2 ** attempt);
            continue;
          }
          throw err;
        }
        // A 401 means the request was not processed: renew the token once, whatever the method.
        if (res.status === 401 && this.tokens && !renewed) {
          renewed = true;
          this.tokens.invalidate();
          attempt--;
          continue;
        }
        if (safe && RETRY_STATUS.has(res.status) && attempt < retries) {
          const after = Number(res.headers.get('retry-after'));
          await sleep(Number.isFinite(after) && after > 0 ? Math.min(after, 10) * 1000 : 200 * 2 ** attempt);
          continue;
        }
        return res;
      }
    };
    this.api = createClient<paths, SdkMedia>({ baseUrl: this.baseUrl, fetch: this.send });
  }

  /**
   * Every item of a paged list, following `Link: <…>; rel="next"` until the last page:
   * `for await (const e of accord.pages(() => accord.api.GET('/consent/v0/consents/search', { params: { query } }))) …`
   */
  async *pages<T>(first: () => Promise<{ data?: T[]; error?: unknown; response: Response }>): AsyncGenerator<T, void, undefined> {
    const page = await first();
    if (page.error !== undefined || !page.data) throw new AccordError(page.response.status, (page.error ?? {}) as Problem);
    yield* page.data;
    let next = nextLink(page.response.headers.get('link'));
    for (let n = 0; next && n < 100_000; n++) {
      const res = await this.send(new Request(new URL(next, this.baseUrl)));
      const body = (await res.json()) as unknown;
      if (!res.ok) throw new AccordError(res.status, body as Problem);
      yield* body as T[];
      next = nextLink(res.headers.get('link'));
    }
  }

  /** Records one consent event or several (all or nothing); `source` is filled when absent. */
  async recordConsent(events: ConsentInput | ConsentInput[]): Promise<ConsentEvent[]> {
    const { data, error, response } = await this.api.POST('/consent/v0/consents', { body: events as never });
    if (error !== undefined) throw new AccordError(response.status, error as Problem);
    return (Array.isArray(data) ? data : [data]) as ConsentEvent[];
  }

  /**
   * From a backend, after sign-in: links the identity the web components used (the subject of the
   * anonymous consent session the backend minted, e.g. a device or cookie id it keeps server-side)
   * to the known subject, so current states and decisions of either resolve across both
   * (docs/sdk.md, "After sign-in"). `subject: null` unlinks (on sign-out of a shared device).
   * Needs an application token: a consent session is refused (403), by design.
   */
  async linkIdentity(body: SubjectLinkRequest): Promise<SubjectLink> {
    const { data, error, response } = await this.api.POST('/consent/v0/subjects/links', { body });
    if (error !== undefined) throw new AccordError(response.status, error as Problem);
    return data!;
  }

  /** From a backend: a consent session token for one subject, to hand to a browser. */
  async createSession(body: components['schemas']['ConsentSessionRequest']): Promise<components['schemas']['ConsentSession']> {
    const { data, error, response } = await this.api.POST('/consent/v0/sessions', { body });
    if (error !== undefined) throw new AccordError(response.status, error as Problem);
    return data!;
  }
}

/** The target of `rel="next"` in a Link header, or undefined. */
export function nextLink(link: string | null): string | undefined {
  for (const part of (link ?? '').split(',')) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (m && /(^|;)\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(m[2]!)) return m[1];
  }
  return undefined;
}
