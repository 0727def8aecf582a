import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import { normalizeRequestId, requestContext, REQUEST_ID_HEADER } from '@accord/common';
import type { GatewayContext } from './context';
import { ApiKeyCache, authenticate } from './middleware/auth';
import { verifyJsonBody, verifyUtf8 } from './middleware/body-checks';
import { documentRouting } from './middleware/document-routing';
import { errorMiddleware, notFoundHandler } from './middleware/errors';
import { buildDocument } from './openapi';
import { consentRoutes } from './routes/consent';
import { dataprocessingRoutes } from './routes/dataprocessing';
import { oauthErrorMiddleware, oauthRoutes } from './routes/oauth';
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
  app.set('trust proxy', ctx.config.ACCORD_TRUST_PROXY);
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(
    pinoHttp({
      logger: ctx.logger,
      genReqId: (req) => (req as { id?: string }).id ?? '',
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
      serializers: { req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }) },
    }),
  );
  app.use(helmet());
  app.use(documentRouting(buildDocument(ctx.baseUrl) as { paths: Record<string, Record<string, unknown>> }));
  app.use(express.json({ limit: ctx.config.ACCORD_BODY_LIMIT, type: ['application/json', 'application/*+json'], verify: verifyJsonBody }));
  app.use(express.urlencoded({ limit: ctx.config.ACCORD_BODY_LIMIT, extended: false, parameterLimit: 1000, verify: verifyUtf8 }));

  app.use(systemRoutes(ctx));
  app.use('/oauth/v0', oauthRoutes(ctx));
  app.use('/oauth/v0/token', oauthErrorMiddleware(ctx.logger));

  const apiKeys = new ApiKeyCache(ctx.clients.oauth, ctx.config.ACCORD_API_KEY_CACHE_MS);
  const issuer = `${ctx.baseUrl}/oauth/v0`;
  const auth = (scope: 'consent' | 'dataprocessing' | 'webhooks', apiKey: 'required' | 'optional') =>
    authenticate({ keys: ctx.tokenKeys, issuer, scope, apiKey, apiKeys });
  app.use('/consent/v0', auth('consent', 'required'), consentRoutes(ctx));
  app.use('/dataprocessing/v0', auth('dataprocessing', 'optional'), dataprocessingRoutes(ctx));
  app.use('/webhooks/v0', auth('webhooks', 'optional'), webhooksRoutes(ctx));

  app.use(notFoundHandler);
  app.use(errorMiddleware(ctx.logger));
  return app;
}
