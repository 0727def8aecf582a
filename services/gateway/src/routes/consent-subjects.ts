import type { Router } from 'express';
import type { consentv1 } from '@accord/proto';
import type { GatewayContext } from '../context';
import { validateBody, validateQuery } from '../openapi/validate';
import { setNextPageLink } from './paging';

/** The REST JSON of an erasure record (never the subject in clear). */
export function erasureJson(e: consentv1.Erasure): Record<string, unknown> {
  return {
    id: e.id,
    subjectHash: e.subjectHash,
    ...(e.issuer !== undefined ? { issuer: e.issuer } : {}),
    appId: e.appId,
    clientId: e.clientId,
    erasedAt: e.erasedAt?.toISOString(),
    events: e.events,
    states: e.states,
  };
}

/** POST /subjects/erase and GET /subjects/erasures. */
export function subjectRoutes(r: Router, ctx: GatewayContext): void {
  const consent = ctx.clients.consent;
  r.post('/subjects/erase', validateBody('ConsentEraseRequest'), async (req, res) => {
    const auth = req.auth!;
    const body = req.body as { subject: string; issuer?: string };
    const out = await consent.eraseSubject({
      accountId: auth.accountId,
      appId: auth.appId,
      clientId: auth.clientId,
      subject: body.subject,
      ...(body.issuer ? { issuer: body.issuer } : {}),
    });
    res.json(erasureJson(out));
  });

  r.get('/subjects/erasures', validateQuery('ConsentErasuresQuery'), async (req, res) => {
    const q = res.locals.query as { limit?: number; cursor?: string };
    const out = await consent.listErasures({ accountId: req.auth!.accountId, page: { limit: q.limit ?? 0, cursor: q.cursor ?? '' } });
    setNextPageLink(res, ctx, '/consent/v0/subjects/erasures', q.limit ? { limit: String(q.limit) } : {}, out.nextCursor);
    res.json(out.erasures.map(erasureJson));
  });
}
