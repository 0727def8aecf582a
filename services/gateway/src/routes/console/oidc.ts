import { type Router, type Request } from 'express';
import { generators, Issuer, type BaseClient } from 'openid-client';
import type { GatewayContext } from '../../context';
import { HttpProblem } from '../../problem';
import { limits, readCookie, sessionCookie } from './session';
import { strictRouter } from '../router';

const TX_COOKIE = 'accord_console_oidc';
const TX_TTL_S = 600;

/**
 * OpenID Connect sign-in (authorization code + PKCE S256, state and nonce) with openid-client.
 * The transaction (state, nonce, code verifier) lives in a short HttpOnly cookie that is
 * SameSite=Lax, because the identity provider's redirect back is a cross-site navigation that a
 * Strict cookie would not survive; it is single-use (cleared on the callback). The user becomes
 * the member bound to "<issuer> <sub>", or, when ACCORD_CONSOLE_OIDC_ACCOUNT_CLAIM names
 * accounts, a new member (ACCORD_CONSOLE_OIDC_ROLE) of the first existing one.
 */
export function consoleOidcRoutes(ctx: GatewayContext): Router {
  const r = strictRouter();
  const c = ctx.config;
  const enabled = Boolean(c.ACCORD_CONSOLE_OIDC_ISSUER && c.ACCORD_CONSOLE_OIDC_CLIENT_ID);
  const redirectUri = `${ctx.baseUrl}/console/api/oidc/callback`;
  let client: Promise<BaseClient> | undefined;
  const getClient = () => {
    // Discovery once, on first use; a failure is retried on the next sign-in.
    client ??= Issuer.discover(c.ACCORD_CONSOLE_OIDC_ISSUER!).then(
      (issuer) =>
        new issuer.Client({
          client_id: c.ACCORD_CONSOLE_OIDC_CLIENT_ID!,
          ...(c.ACCORD_CONSOLE_OIDC_CLIENT_SECRET ? { client_secret: c.ACCORD_CONSOLE_OIDC_CLIENT_SECRET } : { token_endpoint_auth_method: 'none' }),
          redirect_uris: [redirectUri],
          response_types: ['code'],
        }),
      (err: unknown) => {
        client = undefined;
        ctx.logger.warn({ err: (err as Error).message }, 'OIDC discovery failed');
        throw new HttpProblem(503, 'Service unavailable', 'The identity provider cannot be reached.');
      },
    );
    return client;
  };
  const secure = !/^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:|\/|$)/.test(ctx.baseUrl);
  const txCookie = (value: string, maxAge: number) =>
    [`${TX_COOKIE}=${value}`, 'Path=/console/api/oidc', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAge}`, ...(secure ? ['Secure'] : [])].join('; ');

  r.get('/oidc', (_req, res) => {
    res.json({ enabled });
  });

  r.get('/oidc/login', async (_req, res) => {
    if (!enabled) throw HttpProblem.notFound('OpenID Connect sign-in is not configured.');
    const oidc = await getClient();
    const tx = { state: generators.state(), nonce: generators.nonce(), verifier: generators.codeVerifier() };
    res.setHeader('Set-Cookie', txCookie(Buffer.from(JSON.stringify(tx)).toString('base64url'), TX_TTL_S));
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(
      302,
      oidc.authorizationUrl({
        scope: c.ACCORD_CONSOLE_OIDC_SCOPES,
        state: tx.state,
        nonce: tx.nonce,
        code_challenge: generators.codeChallenge(tx.verifier),
        code_challenge_method: 'S256',
      }),
    );
  });

  r.get('/oidc/callback', async (req, res) => {
    if (!enabled) throw HttpProblem.notFound('OpenID Connect sign-in is not configured.');
    const tx = readTx(req);
    res.setHeader('Set-Cookie', txCookie('', 0));
    if (!tx) return res.redirect(302, '/console/#signin-error=expired');
    const oidc = await getClient();
    let claims;
    try {
      const tokens = await oidc.callback(redirectUri, oidc.callbackParams(req), { state: tx.state, nonce: tx.nonce, code_verifier: tx.verifier });
      claims = tokens.claims();
    } catch (err) {
      ctx.logger.info({ err: (err as Error).message }, 'OIDC callback refused');
      return res.redirect(302, '/console/#signin-error=refused');
    }
    const claim = c.ACCORD_CONSOLE_OIDC_ACCOUNT_CLAIM ? claims[c.ACCORD_CONSOLE_OIDC_ACCOUNT_CLAIM] : undefined;
    const claimedAccounts = (Array.isArray(claim) ? claim : claim === undefined ? [] : [claim]).filter((v): v is string => typeof v === 'string');
    try {
      const grant = await ctx.clients.oauthConsole.signInMember({
        subject: `${claims.iss} ${claims.sub}`,
        claimedAccounts,
        claimedRole: c.ACCORD_CONSOLE_OIDC_ROLE,
        displayName: String(claims.email ?? claims.name ?? claims.sub),
        limits: limits(ctx),
        userAgent: req.get('user-agent') ?? '',
      });
      res.setHeader('Set-Cookie', [txCookie('', 0), sessionCookie(ctx, grant.sessionToken)]);
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, '/console/#/applications');
    } catch (err) {
      ctx.logger.info({ err: (err as Error).message, sub: claims.sub }, 'OIDC user is not a console member');
      res.redirect(302, '/console/#signin-error=not-a-member');
    }
  });
  return r;
}

function readTx(req: Request): { state: string; nonce: string; verifier: string } | null {
  const raw = readCookie(req, TX_COOKIE);
  if (!raw) return null;
  try {
    const tx = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
    return typeof tx.state === 'string' && typeof tx.nonce === 'string' && typeof tx.verifier === 'string'
      ? (tx as { state: string; nonce: string; verifier: string })
      : null;
  } catch {
    return null;
  }
}
