import type { Router } from 'express';
import { subjectLinkJson } from '@accord/proto';
import type { GatewayContext } from '../context';
import { validateBody, validateQuery } from '../openapi/validate';
import { setNextPageLink } from './paging';

/**
 * POST and GET /subjects/links (linked identities, docs/consent.md). Only an application's token
 * reaches them: routes/permissions.ts gives consent sessions no right here, so a browser can never
 * attach its device to another subject's consents.
 */
export function linkRoutes(r: Router, ctx: GatewayContext): void {
  const consent = ctx.clients.consent;
  r.post('/subjects/links', validateBody('SubjectLinkRequest'), async (req, res) => {
    const auth = req.auth!;
    const body = req.body as { issuer: string; identity: string; subject: string | null };
    const out = await consent.linkSubject({
      accountId: auth.accountId,
      appId: auth.appId,
      issuer: body.issuer,
      identity: body.identity,
      ...(body.subject !== null ? { subject: body.subject } : {}),
    });
    res.status(201).json(subjectLinkJson(out));
  });

  r.get('/subjects/links', validateQuery('SubjectLinksQuery'), async (req, res) => {
    const q = res.locals.query as { issuer: string; identity?: string; subject?: string; history?: boolean; limit?: number; cursor?: string };
    const out = await consent.listSubjectLinks({
      accountId: req.auth!.accountId,
      issuer: q.issuer,
      ...(q.identity !== undefined ? { identity: q.identity } : {}),
      ...(q.subject !== undefined ? { subject: q.subject } : {}),
      history: q.history === true,
      page: { limit: q.limit ?? 0, cursor: q.cursor ?? '' },
    });
    setNextPageLink(res, ctx, '/consent/v0/subjects/links', req.query, out.nextCursor);
    res.json(out.links.map(subjectLinkJson));
  });
}
