import { type Router } from 'express';
import type { GatewayContext } from '../context';
import { validateBody } from '../openapi/validate';
import { strictRouter } from './router';

/**
 * POST /consent/v0/sessions: a backend mints a browser-safe consent session (oauth service signs).
 * A consent session cannot mint one: the route declares no session right (routes/permissions.ts).
 */
export function sessionRoutes(ctx: GatewayContext): Router {
  const r = strictRouter();
  r.post('/sessions', validateBody('ConsentSessionRequest'), async (req, res) => {
    const auth = req.auth!;
    const b = req.body as { subject: string; issuer: string; groupId?: string; targets?: string[]; ttlSeconds?: number };
    const out = await ctx.clients.oauth.createConsentSession({
      accountId: auth.accountId,
      appId: auth.appId,
      subject: b.subject,
      issuer: b.issuer,
      groupId: b.groupId ?? '',
      targets: b.targets ?? [],
      ttlSeconds: b.ttlSeconds ?? 0,
    });
    res.status(201).setHeader('Cache-Control', 'no-store');
    res.json({ sessionToken: out.sessionToken, expiresAt: out.expiresAt!.toISOString() });
  });
  return r;
}
