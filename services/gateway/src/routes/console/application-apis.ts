import { Router, type RequestHandler } from 'express';
import type { GatewayContext } from '../../context';
import type { Limiter } from '../../limits/limiter';
import { HttpProblem } from '../../problem';
import { importRoutes } from '../consent-imports';
import { dataprocessingRoutes } from '../dataprocessing';
import { webhooksRoutes } from '../webhooks';
import { strictRouter } from '../router';
import { requireDeclaredRole } from './session';

/**
 * Acts as one application of the session's account: checks that the application in the path
 * belongs to the account (else 404), then sets req.auth as a token of that application would,
 * so the REST routers of the public API serve the console unchanged (one implementation).
 */
export function asApplication(ctx: GatewayContext): RequestHandler {
  return async (req, _res, next) => {
    const appId = String(req.params.appId);
    const { applications } = await ctx.clients.oauthConsole.listAccountApplications({ accountId: req.console!.accountId });
    const app = applications.find((a) => a.id === appId);
    if (!app) throw HttpProblem.notFound(`No application ${appId} in this account.`);
    req.auth = { accountId: app.accountId, appId: app.id, clientId: app.clientId, scopes: app.scopes };
    next();
  };
}

/**
 * `asApplication`, then the role the route declares (routes/permissions.ts: every member reads,
 * developers change), so that an application of another account is a 404 whatever the role.
 */
export function actAsApplication(ctx: GatewayContext): RequestHandler {
  const app = asApplication(ctx);
  const role = requireDeclaredRole('application');
  return (req, res, next) => app(req, res, (err?: unknown) => (err ? next(err) : role(req, res, next)));
}

/**
 * The public API's routers under the console, acting as one application of the account:
 * /console/api/applications/:appId/webhooks (= /webhooks/v0),
 * /console/api/applications/:appId/dataprocessing (= /dataprocessing/v0; the data is the
 * account's, changes are recorded as made by that application) and
 * /console/api/applications/:appId/imports[/:id] (= /consent/v0/imports: the imported events are
 * written by that application and count against the account's daily event limit, as through the API).
 */
export function consoleApplicationApis(ctx: GatewayContext, limiter?: Limiter): Router {
  const r = strictRouter();
  r.use('/applications/:appId/webhooks', actAsApplication(ctx), webhooksRoutes(ctx));
  r.use('/applications/:appId/dataprocessing', actAsApplication(ctx), dataprocessingRoutes(ctx));
  r.use('/applications/:appId', consoleImports(ctx, limiter));
  return r;
}

/**
 * The import routes of /consent/v0 (one implementation, routes/consent-imports.ts) below an
 * application: the application is looked up and the role checked for /imports and below only,
 * so the other routes under /applications/:appId pass through untouched.
 */
function consoleImports(ctx: GatewayContext, limiter?: Limiter): Router {
  // strictRouter's matching, and the parent's :appId for actAsApplication
  const r = Router({ caseSensitive: true, strict: true, mergeParams: true });
  r.use('/imports', actAsApplication(ctx));
  importRoutes(r, ctx, limiter);
  return r;
}
