import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { errors as joseErrors } from 'jose';
import { accessClaims, bearerToken, VerifiedTokens, type AccessClaims, type KeyStore } from './access-tokens';
import { PermissionDeniedError, UnauthenticatedError } from './errors';
import type { GrpcTls } from './grpc-tls';
import { SERVICE_TOKEN_HEADER, type ServiceIdentity, type ServicePeers } from './service-identity';

/** The scopes of access tokens, one per API (as over REST). */
export type Scope = 'consent' | 'dataprocessing' | 'webhooks';

/**
 * Who may call one RPC. Declared beside the service's handlers in one table per service
 * (`AccessTable`), which the server reads: an RPC without a row does not start.
 */
export interface RpcAccess {
  /**
   * Platform callers (an access token of `/oauth/v0/token` in `authorization: Bearer`) whose token
   * carries this scope; they act in their own account only (and their own application where the
   * message names one). Absent: no platform caller.
   */
  scope?: Scope;
  /** Accord's services (service tokens) that may call it, for any account. */
  services: readonly ServiceIdentity[];
  /** The oauth service's admin token (`authorization: Bearer <ACCORD_ADMIN_TOKEN>`). */
  admin?: true;
  /** Anyone, with no credential: only for what is published anyway (public keys). */
  public?: true;
  /** The message's `app_id` filters within the account (export), rather than naming the calling application. */
  appFilter?: true;
}

/** One row per RPC of a generated server interface `S` (its methods' names, as ts-proto spells them). */
export type AccessTable<S> = { [K in keyof S as string extends K ? never : K]: RpcAccess };

/** Who is calling, once authenticated. */
export type Caller = { kind: 'service'; service: ServiceIdentity } | ({ kind: 'platform' } & AccessClaims) | { kind: 'admin' } | { kind: 'public' };

export type PlatformCaller = Extract<Caller, { kind: 'platform' }>;

/** What a server needs to authenticate its callers. */
export interface GrpcAuth {
  /** Public keys of Accord's service identities. */
  peers: ServicePeers;
  /**
   * Mutual TLS (grpc-tls.ts): the server listens with it, and a caller's verified certificate
   * proves the service identity its URI SAN names; a service token must then come with the
   * certificate of the same identity.
   */
  tls?: GrpcTls;
  /** Access tokens of platform callers: the oauth service's keys (JWKS, cached) and their issuer. */
  accessTokens?: { keys: KeyStore; issuer: string; verified?: VerifiedTokens };
  /** The oauth service's admin token, for the RPCs declared `admin`. */
  adminToken?: string;
  /**
   * Runs once a platform caller is admitted to an RPC (the account's limits); throws to refuse.
   * What it returns is called with the call's outcome (the error, or undefined) once it is answered.
   */
  admit?: (caller: PlatformCaller, rpc: string, request: unknown) => Promise<Settle | void> | Settle | void;
}

/** Called with the outcome of an admitted call: its error, or undefined when it succeeded. */
export type Settle = (err: unknown) => void;

/** The caller of a call, and what to tell its limits of the outcome. */
export interface Authorized {
  caller: Caller;
  settle?: Settle;
}

const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest()) && a.length === b.length;

/** The details a refusal carries: enough for an honest caller, nothing about why a credential failed. */
const REQUIRED = 'credentials required: authorization: Bearer <access token>';
const INVALID = 'invalid credentials';

/**
 * Authenticates one call and authorizes it against the RPC's row, before its handler runs:
 * - a service token (`x-accord-service`) proves one of Accord's services, admitted when the row
 *   names it; with mutual TLS on, only over a connection whose client certificate names the
 *   same identity (`peer`);
 * - with mutual TLS on, a client certificate of Accord's CA naming a service identity, on a call
 *   with neither service token nor bearer token, proves that service;
 * - a bearer token is the admin token on `admin` rows, otherwise an access token: verified locally
 *   (signature with a published key, issuer, audience, expiry), then the row's scope, then the
 *   message's `account_id` (and `app_id`, `client_id`) must be the token's — an empty one is
 *   filled in from the token;
 * - no credential: only `public` rows.
 * UNAUTHENTICATED for a missing or bad credential, PERMISSION_DENIED for a valid one this RPC is
 * not open to.
 */
export async function authorizeCall(
  rpc: string,
  access: RpcAccess,
  metadata: Metadata,
  request: unknown,
  auth: GrpcAuth,
  /** The identity the caller's verified client certificate names (mutual TLS), if any. */
  peer?: ServiceIdentity,
): Promise<Authorized> {
  if (access.public) return { caller: { kind: 'public' } };
  const serviceToken = metadata.get(SERVICE_TOKEN_HEADER)[0];
  if (serviceToken !== undefined) {
    const service = typeof serviceToken === 'string' ? await auth.peers.verify(serviceToken) : undefined;
    if (!service) throw new UnauthenticatedError(INVALID);
    // with mutual TLS a stolen token is worth nothing without the service's certificate and key
    if (auth.tls && service !== peer) throw new UnauthenticatedError(INVALID);
    if (!access.services.includes(service)) throw new PermissionDeniedError(`${rpc} is not open to the ${service} service`);
    return { caller: { kind: 'service', service } };
  }
  const header = metadata.get('authorization')[0];
  if (header === undefined && auth.tls && peer) {
    if (!access.services.includes(peer)) throw new PermissionDeniedError(`${rpc} is not open to the ${peer} service`);
    return { caller: { kind: 'service', service: peer } };
  }
  if (header === undefined) throw new UnauthenticatedError(REQUIRED);
  const token = bearerToken(header);
  if (!token) throw new UnauthenticatedError(INVALID);
  if (access.admin) {
    if (!auth.adminToken) throw new PermissionDeniedError('admin RPCs are disabled: ACCORD_ADMIN_TOKEN is not set on the oauth service');
    if (!sameSecret(token, auth.adminToken)) throw new UnauthenticatedError(INVALID);
    return { caller: { kind: 'admin' } };
  }
  const claims = await platformClaims(token, auth);
  if (!access.scope) throw new PermissionDeniedError(`${rpc} is not open to platform callers`);
  if (!claims.scopes.includes(access.scope)) throw new PermissionDeniedError(`${rpc} needs a token granted the scope "${access.scope}"`);
  const caller: PlatformCaller = { kind: 'platform', ...claims };
  bindToCaller(rpc, request, caller, access);
  return { caller, settle: (await auth.admit?.(caller, rpc, request)) ?? undefined };
}

async function platformClaims(token: string, auth: GrpcAuth): Promise<AccessClaims> {
  if (!auth.accessTokens) throw new UnauthenticatedError(INVALID);
  const { keys, issuer } = auth.accessTokens;
  const verified = (auth.accessTokens.verified ??= new VerifiedTokens());
  let claims: AccessClaims | undefined;
  try {
    claims = accessClaims(await verified.verify(token, keys, issuer));
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) throw new UnauthenticatedError(INVALID);
    throw err; // the oauth service unreachable for its keys: UNAVAILABLE, not a refusal
  }
  if (!claims) throw new UnauthenticatedError(INVALID);
  return claims;
}

/** The message's own fields naming account, application and client: the caller's, or refused. */
function bindToCaller(rpc: string, request: unknown, caller: PlatformCaller, access: RpcAccess): void {
  if (!request || typeof request !== 'object') return;
  const message = request as Record<string, unknown>;
  const bind = (field: 'accountId' | 'appId' | 'clientId', own: string, what: string) => {
    const value = message[field];
    if (value === undefined || value === '') {
      if (field in message) message[field] = own;
      return;
    }
    if (value !== own) throw new PermissionDeniedError(`${rpc}: the access token's ${what} cannot act for another`);
  };
  bind('accountId', caller.accountId, 'account');
  if (!access.appFilter) bind('appId', caller.appId, 'application');
  bind('clientId', caller.clientId, 'client');
}
