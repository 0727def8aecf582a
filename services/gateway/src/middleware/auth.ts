import { status as Code } from '@grpc/grpc-js';
import type { Request, RequestHandler } from 'express';
import { errors as joseErrors } from 'jose';
import { accessClaims, bearerToken, isServiceError, VerifiedTokens, type AccessClaims, type KeyStore } from '@accord/common';
import type { Clients } from '../grpc/clients';
import { HttpProblem } from '../problem';

/** Who is calling, from a verified access token. */
export type AuthContext = AccessClaims;

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AuthContext;
  }
}

export type Scope = 'consent' | 'dataprocessing' | 'webhooks';

const unauthorized = (detail: string, error = 'invalid_token') =>
  new HttpProblem(401, 'Unauthorized', detail, [], { 'WWW-Authenticate': `Bearer realm="accord", error="${error}", error_description="${detail}"` });

/**
 * Verifies the bearer token locally (JWKS from the oauth service, cached): signature with a
 * published key (ES256/RS256 only, so `alg: none` and HMAC tricks fail), issuer, expiry.
 * Then the scope this REST base needs (403), then `x-api-key` (required or optional; when
 * sent it must belong to the token's account).
 */
export function authenticate(opts: {
  keys: KeyStore;
  issuer: string;
  scope: Scope;
  apiKey: 'required' | 'optional';
  apiKeys: ApiKeyCache;
  verified?: VerifiedTokens;
}): RequestHandler {
  const verified = opts.verified ?? new VerifiedTokens();
  return async (req, _res, next) => {
    const token = bearerToken(req.get('authorization') ?? '');
    if (!token) {
      throw new HttpProblem(401, 'Unauthorized', 'A bearer access token is required (Authorization: Bearer <token>).', [], {
        'WWW-Authenticate': 'Bearer realm="accord"',
      });
    }
    let payload;
    try {
      payload = await verified.verify(token, opts.keys, opts.issuer);
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthorized('The access token has expired.');
      if (err instanceof joseErrors.JOSEError) throw unauthorized('The access token is not valid.');
      throw err; // e.g. the oauth service is unreachable for the JWKS: a 503, not a 401
    }
    const auth = accessClaims(payload);
    if (!auth) throw unauthorized('The access token lacks account or application claims.');
    if (!auth.scopes.includes(opts.scope)) {
      throw new HttpProblem(
        403,
        'Forbidden',
        `This API needs a token granted the scope "${opts.scope}".`,
        [],
        {
          'WWW-Authenticate': `Bearer realm="accord", error="insufficient_scope", scope="${opts.scope}"`,
        },
        'insufficient-scope',
      );
    }
    const apiKey = req.get('x-api-key');
    if (apiKey === undefined || apiKey === '') {
      if (opts.apiKey === 'required') throw new HttpProblem(401, 'Unauthorized', 'The x-api-key header is required on this API.', [], {}, 'api-key-required');
    } else {
      const account = await opts.apiKeys.accountOf(apiKey);
      if (!account) throw new HttpProblem(401, 'Unauthorized', 'The x-api-key is not valid.', [], {}, 'invalid-api-key');
      if (account !== auth.accountId)
        throw new HttpProblem(403, 'Forbidden', 'The x-api-key does not belong to the account of the access token.', [], {}, 'api-key-mismatch');
    }
    req.auth = auth;
    next();
  };
}

/** Remembers API key → account for a short time (also negative answers), bounded in size. */
export class ApiKeyCache {
  private cache = new Map<string, { account: string | null; until: number }>();
  constructor(
    private readonly oauth: Clients['oauth'],
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async accountOf(apiKey: string): Promise<string | null> {
    if (apiKey.length > 256) return null;
    const hit = this.cache.get(apiKey);
    if (hit && hit.until > Date.now()) return hit.account;
    let account: string | null;
    try {
      account = (await this.oauth.validateApiKey({ apiKey })).accountId;
    } catch (err) {
      if (isServiceError(err) && err.code === Code.NOT_FOUND) account = null;
      else throw err;
    }
    if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(apiKey, { account, until: Date.now() + this.ttlMs });
    return account;
  }
}

/** Decodes `Authorization: Basic`; RFC 6749 §2.3.1 form-encodes id and secret before base64. */
export function basicCredentials(req: Request): { clientId: string; clientSecret: string } | 'malformed' | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!m) return 'malformed';
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return 'malformed';
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, i).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return 'malformed';
  }
}
