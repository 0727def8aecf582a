import type { KeyObject } from 'node:crypto';
import { oauthv1, type commonv1 } from '@accord/proto';
import { KeyStore, VerifiedTokens } from './access-tokens';
import { createClient } from './grpc-client';
import type { GrpcAuth, PlatformCaller } from './grpc-auth';
import type { Logger } from './logger';
import { ServicePeers, serviceSigner, type ServiceIdentity, type ServiceTokenSigner } from './service-identity';

/** What serviceAuth reads of a service's config (serviceAuthEnv, baseEnv, and platformAuthEnv where platform callers are served). */
export interface ServiceAuthConfig {
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
    admit?: (caller: PlatformCaller, rpc: string) => Promise<void> | void;
  } = {},
): ServiceAuth {
  const signer = serviceSigner(identity, config.ACCORD_SERVICE_KEY);
  if (!signer) logger.warn('ACCORD_SERVICE_KEY is not set: this service proves no identity, and Accord’s other services refuse its calls');
  const peers = new ServicePeers(config.ACCORD_SERVICE_PEERS);
  if (!peers.size) logger.warn('ACCORD_SERVICE_PEERS is empty: no Accord service can call this one');
  const auth: GrpcAuth = { peers, adminToken: opts.adminToken, admit: opts.admit };
  let close = () => undefined as void;
  if (opts.jwks) {
    // a token is told from garbage even where no platform caller is admitted: PERMISSION_DENIED, not UNAUTHENTICATED
    const keys = new KeyStore(opts.jwks, config.ACCORD_JWKS_CACHE_MS ?? 300_000, logger);
    auth.accessTokens = { keys, issuer: accessTokenIssuer(config.ACCORD_BASE_URL), verified: new VerifiedTokens() };
  } else if (opts.platform) {
    if (!config.ACCORD_OAUTH_ADDR) throw new Error('a service with platform callers needs ACCORD_OAUTH_ADDR (the keys of access tokens)');
    const oauth = createClient(oauthv1.OAuthServiceService, config.ACCORD_OAUTH_ADDR, { identity: signer });
    const keys = new KeyStore(async () => (await oauth.getJwks({})).jwks?.keys ?? [], config.ACCORD_JWKS_CACHE_MS ?? 300_000, logger);
    auth.accessTokens = { keys, issuer: accessTokenIssuer(config.ACCORD_BASE_URL), verified: new VerifiedTokens() };
    close = () => oauth.close();
  }
  return { auth, identity: signer, close };
}
