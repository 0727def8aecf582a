import type { ErrorRequestHandler, RequestHandler, Response, Router } from 'express';
import { status as Code } from '@grpc/grpc-js';
import { isServiceError, type Logger } from '@accord/common';
import type { GatewayContext } from '../context';
import { basicCredentials } from '../middleware/auth';
import { toProblem } from '../middleware/errors';
import { titleFor } from '../problem';
import { strictRouter } from './router';

const FIELDS = ['grant_type', 'scope', 'client_id', 'client_secret', 'refresh_token'] as const;

function oauthError(res: Response, status: number, error: string, description: string, headers: Record<string, string> = {}): void {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(status).json({ error, error_description: description });
}

/**
 * POST /oauth/v0/token, behind its limits (`tokenLimit`). Protocol checks that need the raw HTTP request (Basic header, duplicate
 * parameters, body shape) happen here; grant logic lives in the oauth service.
 */
export function oauthRoutes(ctx: GatewayContext, tokenLimit: RequestHandler): Router {
  const r = strictRouter();
  r.post('/token', tokenLimit, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return oauthError(res, 400, 'invalid_request', 'The body must be a JSON object or application/x-www-form-urlencoded parameters.');
    }
    const params: Record<string, string> = {};
    for (const name of FIELDS) {
      const v = (body as Record<string, unknown>)[name];
      if (v === undefined) continue;
      if (Array.isArray(v)) return oauthError(res, 400, 'invalid_request', `The parameter ${name} is repeated.`);
      if (typeof v !== 'string') return oauthError(res, 400, 'invalid_request', `The parameter ${name} must be a string.`);
      params[name] = v;
    }
    if (!params.grant_type) return oauthError(res, 400, 'invalid_request', 'The parameter grant_type is required.');

    const basic = basicCredentials(req);
    if (basic === 'malformed') {
      return oauthError(res, 401, 'invalid_client', 'The Authorization header is not valid Basic client authentication.', {
        'WWW-Authenticate': 'Basic realm="accord"',
      });
    }
    if (basic && (params.client_id !== undefined || params.client_secret !== undefined) && params.client_id !== basic.clientId) {
      return oauthError(res, 400, 'invalid_request', 'Use one client authentication method: the Basic header or client_id/client_secret in the body.');
    }
    if (basic && params.client_secret !== undefined) {
      return oauthError(res, 400, 'invalid_request', 'Use one client authentication method: the Basic header or client_id/client_secret in the body.');
    }

    let result;
    try {
      result = await ctx.clients.oauth.issueToken({
        grantType: params.grant_type,
        clientId: basic?.clientId ?? params.client_id ?? '',
        clientSecret: basic?.clientSecret ?? params.client_secret ?? '',
        scope: params.scope ?? '',
        refreshToken: params.refresh_token ?? '',
        basicAuth: Boolean(basic),
      });
    } catch (err) {
      if (isServiceError(err) && (err.code === Code.UNAVAILABLE || err.code === Code.DEADLINE_EXCEEDED)) {
        return oauthError(res, 503, 'temporarily_unavailable', 'The authorization server is temporarily unavailable.', { 'Retry-After': '1' });
      }
      throw err;
    }
    if (result.error) {
      const { error, errorDescription } = result.error;
      if (error === 'invalid_client') {
        return oauthError(res, 401, error, errorDescription, basic ? { 'WWW-Authenticate': 'Basic realm="accord"' } : {});
      }
      return oauthError(res, 400, error, errorDescription);
    }
    const t = result.token;
    if (!t) throw new Error('oauth service answered neither token nor error');
    res.status(200).json({ access_token: t.accessToken, expires_in: t.expiresIn, scope: t.scope, refresh_token: t.refreshToken, token_type: t.tokenType });
  });
  return r;
}

/**
 * Errors on the token endpoint in the RFC 6749 §5.2 form that its clients parse (an unreadable
 * or oversized body, an unsupported media type, a method it lacks), never problem+json.
 */
export function oauthErrorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const p = toProblem(err);
    if (p.status >= 500) logger.error({ err, method: req.method, path: req.path, status: p.status }, 'request failed');
    const error = p.status === 503 ? 'temporarily_unavailable' : p.status >= 500 ? 'server_error' : 'invalid_request';
    res.setHeader('Cache-Control', 'no-store');
    oauthError(res, p.status, error, p.status >= 500 ? titleFor(p.status) : (p.detail ?? p.title), p.headers);
  };
}
