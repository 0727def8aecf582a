import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { normalizeRequestId, requestContext, REQUEST_ID_HEADER, VerifiedTokens } from '@accord/common';
import type { GatewayContext } from './context';
import { accessLog } from './middleware/access-log';
import { ApiKeyCache, authenticate } from './middleware/auth';
import { corsForSessions } from './middleware/cors';
import { OriginCache, sessionOr } from './middleware/session-auth';
import { declaredPermissions, mountAccess } from './middleware/permissions';
import { verifyForm, verifyJsonBody, wellFormedBody } from './middleware/body-checks';
import { documentRouting } from './middleware/document-routing';
import { errorMiddleware, notFoundHandler } from './middleware/errors';
import { eventLimits, requestLimits, tokenLimits } from './middleware/limits';
import { httpMetrics } from './middleware/metrics';
import { Limiter } from './limits/limiter';
import { buildDocument } from './openapi';
import { consentRoutes } from './routes/consent';
import { consoleApiRoutes, consoleDir, consolePages } from './routes/console';
import { dataprocessingRoutes } from './routes/dataprocessing';
import { docsRoutes } from './routes/docs';
import { homeRoutes } from './routes/home';
import { oauthErrorMiddleware, oauthRoutes } from './routes/oauth';
import { PERMISSIONS } from './routes/permissions';
import { sessionRoutes } from './routes/sessions';
import { sdkRoutes } from './routes/sdk';
import { systemRoutes } from './routes/system';
import { webhooksRoutes } from './routes/webhooks';

/** Accepts the caller's x-request-id (or makes one), returns it, and runs the request in its context. */
const requestId: RequestHandler = (req, res, next) => {
  const id = normalizeRequestId(req.get(REQUEST_ID_HEADER));
  res.setHeader(REQUEST_ID_HEADER, id);
  (req as { id?: string }).id = id;
  requestContext.run({ requestId: id }, next);
};

export function createApp(ctx: GatewayContext): Express {
  const app = express();
  app.disable('x-powered-by');
  // One spelling per path, as the OpenAPI document has it (every router too: routes/router.ts).
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.set('trust proxy', ctx.config.ACCORD_TRUST_PROXY);
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(httpMetrics);
  app.use(accessLog(ctx.logger));
  app.use(helmet());
  app.use(documentRouting(buildDocument(ctx.baseUrl) as { paths: Record<string, Record<string, unknown>> }));
  // Who may call each route is declared in one table; the checks below read it for the request's route.
  app.use(declaredPermissions(PERMISSIONS));
  app.use(express.json({ limit: ctx.config.ACCORD_BODY_LIMIT, type: ['application/json', 'application/*+json'], verify: verifyJsonBody }));
  app.use(express.urlencoded({ limit: ctx.config.ACCORD_BODY_LIMIT, extended: false, parameterLimit: 1000, verify: verifyForm }));
  // a lone UTF-16 surrogate in a JSON body is refused where it is (it cannot reach a service as sent)
  app.use(wellFormedBody);

  app.use(homeRoutes({ console: consoleDir(ctx) !== null, demoUrl: ctx.config.ACCORD_DEMO_URL }));
  app.use(systemRoutes(ctx));
  app.use(docsRoutes());
  app.use(sdkRoutes(ctx));
  const limiter = new Limiter(ctx.config, ctx.clients.limits, ctx.logger);
  app.use('/oauth/v0', oauthRoutes(ctx, tokenLimits(limiter)));
  app.use('/oauth/v0/token', oauthErrorMiddleware(ctx.logger));

  const apiKeys = new ApiKeyCache(ctx.clients.oauth, ctx.config.ACCORD_API_KEY_CACHE_MS);
  const issuer = `${ctx.baseUrl}/oauth/v0`;
  const verified = new VerifiedTokens();
  const auth = (prefix: string) => authenticate({ keys: ctx.tokenKeys, issuer, ...mountAccess(PERMISSIONS, prefix), apiKeys, verified });
  const limited = requestLimits(limiter);
  // Consent sessions (browsers): CORS for allowed origins, then the session token or an access token.
  const origins = new OriginCache(ctx.clients.oauth, ctx.config.ACCORD_API_KEY_CACHE_MS);
  const session = { keys: ctx.tokenKeys, issuer, baseUrl: ctx.baseUrl, origins, dataprocessing: ctx.clients.dataprocessing, verified };
  const cors = corsForSessions(origins);
  app.use('/consent/v0', cors, sessionOr(auth('/consent/v0'), session), limited, sessionRoutes(ctx), consentRoutes(ctx, eventLimits(limiter), limiter));
  app.use('/dataprocessing/v0', cors, sessionOr(auth('/dataprocessing/v0'), session), limited, dataprocessingRoutes(ctx));
  app.use('/webhooks/v0', auth('/webhooks/v0'), limited, webhooksRoutes(ctx));

  // The account web application: its API (session cookie + CSRF, roles) and its pages.
  app.use('/console/api', consoleApiRoutes(ctx, { origins, limiter }));
  app.use('/console', consolePages(ctx));

  app.use(notFoundHandler);
  app.use(errorMiddleware(ctx.logger));
  return app;
}
