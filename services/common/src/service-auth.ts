import type { KeyObject } from 'node:crypto';
import { limitsv1, oauthv1, type commonv1 } from '@accord/proto';
import { KeyStore, VerifiedTokens } from './access-tokens';
import { AccountLimits, REFUSED_BEFORE_STORING, type AccountLimitsConfig } from './account-limits';
import { InvalidArgumentError, ResourceExhaustedError } from './errors';
import { createClient } from './grpc-client';
import type { GrpcAuth, PlatformCaller, Settle } from './grpc-auth';
import { grpcTls, type GrpcTls, type GrpcTlsConfig } from './grpc-tls';
import type { Logger } from './logger';
import { ServicePeers, serviceSigner, type ServiceIdentity, type ServiceTokenSigner } from './service-identity';

/** What serviceAuth reads of a service's config (serviceAuthEnv, baseEnv, and platformAuthEnv where platform callers are served). */
export interface ServiceAuthConfig extends GrpcTlsConfig {
  ACCORD_SERVICE_KEY?: string;
  ACCORD_SERVICE_PEERS: Map<ServiceIdentity, KeyObject>;
  ACCORD_BASE_URL: string;
}
export interface PlatformAuthConfig {
  ACCORD_OAUTH_ADDR: string;
  ACCORD_JWKS_CACHE_MS: number;
}

export interface ServiceAuth {
  /** How this service's gRPC server authenticates its callers. */
  auth: GrpcAuth;
  /** This service's own identity, for the clients it calls other services with (undefined: none configured). */
  identity?: ServiceTokenSigner;
  /** Mutual TLS for its server (auth.tls) and for the clients it calls other services with (undefined: plaintext). */
  tls?: GrpcTls;
  close(): void;
}

/** The issuer of access tokens, as the oauth service signs them: `<ACCORD_BASE_URL>/oauth/v0`. */
export const accessTokenIssuer = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/oauth/v0`;

/**
 * A service's gRPC authentication from its config: its identity key, the public keys of Accord's
 * service identities, and — for a service platform callers may use — the oauth service's JWKS
 * (fetched over gRPC, cached as the gateway caches it) to verify their access tokens locally.
 */
export function serviceAuth(
  identity: ServiceIdentity,
  config: ServiceAuthConfig & Partial<PlatformAuthConfig>,
  logger: Logger,
  opts: {
    /** Platform callers may call some of its RPCs: their access tokens are verified with the oauth service's JWKS. */
    platform?: boolean;
    /** The keys of access tokens when this process has them itself (the oauth service), instead of asking the oauth service. */
    jwks?: () => Promise<commonv1.Jwk[]>;
    adminToken?: string;
    /**
     * The account limits its platform callers are held to, as REST callers are at the gateway
     * (AccountLimits: the same buckets, overrides and daily event count), and for the RPCs that
     * store events, how many a request stores.
     */
    limits?: { config: AccountLimitsConfig; events?: (rpc: string, request: unknown) => number | undefined };
  } = {},
): ServiceAuth {
  const signer = serviceSigner(identity, config.ACCORD_SERVICE_KEY);
  if (!signer) logger.warn('ACCORD_SERVICE_KEY is not set: this service proves no identity, and Accord’s other services refuse its calls');
  const peers = new ServicePeers(config.ACCORD_SERVICE_PEERS);
  if (!peers.size) logger.warn('ACCORD_SERVICE_PEERS is empty: no Accord service can call this one');
  const tls = grpcTls(config, (err) => logger.warn({ err }, 'gRPC TLS: the certificate files could not be read again; the previous ones stay in use'));
  if (tls && tls.identity() !== identity) {
    tls.close();
    throw new Error(
      `gRPC TLS: the certificate ${config.ACCORD_GRPC_TLS_CERT_FILE} names ${tls.identity() ?? 'no service identity'}, not spiffe://accord/${identity}`,
    );
  }
  const auth: GrpcAuth = { peers, adminToken: opts.adminToken, tls };
  const closers: Array<() => void> = [() => tls?.close()];
  if (opts.jwks) {
    // a token is told from garbage even where no platform caller is admitted: PERMISSION_DENIED, not UNAUTHENTICATED
    const keys = new KeyStore(opts.jwks, config.ACCORD_JWKS_CACHE_MS ?? 300_000, logger);
    auth.accessTokens = { keys, issuer: accessTokenIssuer(config.ACCORD_BASE_URL), verified: new VerifiedTokens() };
  } else if (opts.platform) {
    if (!config.ACCORD_OAUTH_ADDR) throw new Error('a service with platform callers needs ACCORD_OAUTH_ADDR (the keys of access tokens)');
    const oauth = createClient(oauthv1.OAuthServiceService, config.ACCORD_OAUTH_ADDR, { identity: signer, tls });
    const keys = new KeyStore(async () => (await oauth.getJwks({})).jwks?.keys ?? [], config.ACCORD_JWKS_CACHE_MS ?? 300_000, logger);
    auth.accessTokens = { keys, issuer: accessTokenIssuer(config.ACCORD_BASE_URL), verified: new VerifiedTokens() };
    closers.push(() => oauth.close());
    if (opts.limits) {
      const client = createClient(limitsv1.LimitsServiceService, config.ACCORD_OAUTH_ADDR, { identity: signer, tls });
      auth.admit = admitWithin(new AccountLimits(opts.limits.config, client, logger), opts.limits.events);
      closers.push(() => client.close());
    }
  }
  return { auth, identity: signer, tls, close: () => closers.forEach((c) => c()) };
}

/**
 * A platform caller's call against its account's limits, as the gateway holds REST requests to
 * them: the account's and the application's request buckets (RESOURCE_EXHAUSTED with retry
 * info), then for a write of events the events per request (INVALID_ARGUMENT) and per day
 * (RESOURCE_EXHAUSTED until the day's count starts again); the events of a write refused before
 * anything was stored are given back.
 */
function admitWithin(limits: AccountLimits, eventsOf?: (rpc: string, request: unknown) => number | undefined) {
  return async (caller: PlatformCaller, rpc: string, request: unknown): Promise<Settle | void> => {
    const effective = await limits.limitsOf(caller.accountId);
    const admission = limits.admitRequest(caller.accountId, caller.appId, effective);
    if (admission.refused) {
      const { name, retryAfter } = admission.refused;
      throw new ResourceExhaustedError(
        `The ${name === 'account' ? 'account' : 'application'}'s request limit is exhausted; retry after ${retryAfter} s.`,
        retryAfter,
      );
    }
    const count = eventsOf?.(rpc, request);
    if (count === undefined) return;
    const charge = await limits.chargeEvents(caller.accountId, count, effective);
    if (charge.outcome === 'too-many-in-request') throw InvalidArgumentError.field('/events', `must have at most ${charge.max} items`);
    if (charge.outcome === 'over-daily') {
      throw new ResourceExhaustedError(
        `The account's daily event limit (${charge.max}) would be exceeded: ${charge.used} used today, ${count} in this request; the count starts again in ${charge.resetSeconds} s.`,
        charge.resetSeconds,
      );
    }
    if (charge.outcome !== 'charged') return;
    return (err) => {
      const code = (err as { code?: number } | undefined)?.code;
      if (code !== undefined && REFUSED_BEFORE_STORING.has(code)) limits.refundEvents(caller.accountId, count, effective);
    };
  };
}
