import { Router } from 'express';

/**
 * A router that matches paths as the OpenAPI document spells them: case-sensitive, and without
 * Express's optional trailing slash. One resource has one path, so a check attached to a route
 * holds for every request that route answers, and `/Token` or `/consents/` are 404s instead of
 * second ways in (docs/reliability.md, *One spelling per path*). The app itself is set the same
 * way (`createApp`).
 */
export function strictRouter(): Router {
  return Router({ caseSensitive: true, strict: true });
}
