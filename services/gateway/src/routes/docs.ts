import { dirname } from 'node:path';
import express, { type Router } from 'express';
import { strictRouter } from './router';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Accord API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// A file, not an inline script, so that the gateway's Content-Security-Policy (script-src 'self') holds.
// validatorUrl null: Swagger UI would otherwise send the document to an online validator.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: true,
  validatorUrl: null,
});
`;

/**
 * GET /docs: the API reference (Swagger UI, served from the swagger-ui-dist npm package, no CDN)
 * over /openapi.json. Its "Authorize" dialog fills the document's security schemes (bearer
 * token, x-api-key, Basic client credentials), so "Try it out" works with a pasted token.
 */
export function docsRoutes(): Router {
  const r = strictRouter();
  const assets = dirname(require.resolve('swagger-ui-dist/package.json'));
  r.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').setHeader('Cache-Control', 'no-cache');
    res.send(PAGE);
  });
  r.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  r.use('/docs/assets', express.static(assets, { index: false, maxAge: '1h' }));
  return r;
}
