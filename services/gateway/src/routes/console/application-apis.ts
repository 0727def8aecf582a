import { type Router, type RequestHandler } from 'express';
import type { GatewayContext } from '../../context';
import { HttpProblem } from '../../problem';
import { dataprocessingRoutes } from '../dataprocessing';
import { webhooksRoutes } from '../webhooks';
import { strictRouter } from '../router';

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

/** Reads for every member; changes need `change` (the developer role). */
export function readsOr(change: RequestHandler): RequestHandler {
  return (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? next() : change(req, res, next));
}

/**
 * The public API's routers under the console, acting as one application of the account:
 * /console/api/applications/:appId/webhooks (= /webhooks/v0) and
 * /console/api/applications/:appId/dataprocessing (= /dataprocessing/v0; the data is the
 * account's, changes are recorded as made by that application).
 */
export function consoleApplicationApis(ctx: GatewayContext, developer: RequestHandler): Router {
  const r = strictRouter();
  r.use('/applications/:appId/webhooks', asApplication(ctx), readsOr(developer), webhooksRoutes(ctx));
  r.use('/applications/:appId/dataprocessing', asApplication(ctx), readsOr(developer), dataprocessingRoutes(ctx));
  return r;
}
