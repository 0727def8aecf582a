import type { RequestHandler, Router } from 'express';
import { consentEventJson } from '@accord/proto';
import type { GatewayContext } from '../context';
import { ConsentSearches } from '../consent-batches';
import { validateQuery } from '../openapi/validate';
import { HttpProblem } from '../problem';
import { decisionRoutes } from './consent-decisions';
import { createConsentRoutes } from './consent-events';
import { exportRoutes } from './consent-export';
import { EVENT_ID, evidenceRoutes } from './consent-log';
import { subjectRoutes } from './consent-subjects';
import { consentRecord } from './dpv';
import { asksJsonLd, sendJsonLd } from './jsonld';
import { importRoutes } from './consent-imports';
import type { Limiter } from '../limits/limiter';
import { linkRoutes } from './consent-links';
import { strictRouter } from './router';
import { setNextPageLink } from './paging';

/** The REST JSON of a consent event (kept in @accord/proto, shared with the admin CLI's export). */
export { consentEventJson };
export { ExportBody } from './consent-export';
export { erasureJson } from './consent-subjects';
export { withGpcHeader } from './consent-events';

/**
 * /consent/v0: consent events (write-once), search, decisions, exports, statistics, receipts and
 * the log's proofs, subjects' erasure; `eventLimit` guards the route that stores events. Each
 * part registers its routes in turn (the fixed paths before `/consents/:id`).
 */
export function consentRoutes(ctx: GatewayContext, eventLimit: RequestHandler, limiter?: Limiter): Router {
  const r = strictRouter();
  const consent = ctx.clients.consent;
  createConsentRoutes(r, ctx, eventLimit);
  readRoutes(r, ctx);
  decisionRoutes(r, ctx);
  exportRoutes(r, ctx);
  statisticsRoute(r, ctx);
  evidenceRoutes(r, ctx);
  subjectRoutes(r, ctx);
  importRoutes(r, ctx, limiter);
  linkRoutes(r, ctx);
  r.get('/consents/:id', async (req, res) => {
    const id = String(req.params.id);
    if (!EVENT_ID.test(id)) throw HttpProblem.notFound('No such consent event.');
    if (asksJsonLd(req)) sendJsonLd(res, await consentRecord(ctx, req.auth!.accountId, id, false));
    else res.json(consentEventJson(await consent.getConsent({ accountId: req.auth!.accountId, id })));
  });

  // Events are immutable: no PUT, PATCH or DELETE anywhere.
  return r;
}

/** GET /consents/search and /consents/token/:token. */
function readRoutes(r: Router, ctx: GatewayContext): void {
  const consent = ctx.clients.consent;
  const searches = new ConsentSearches(
    (q) => consent.searchConsents(q),
    (q) => consent.searchConsentsBatch(q),
  );
  r.get('/consents/search', validateQuery('ConsentSearchQuery'), async (req, res) => {
    const q = res.locals.query as {
      subject: string;
      issuer: string;
      target: string;
      source?: string;
      scope?: string;
      current?: boolean;
      limit?: number;
      cursor?: string;
      gpc?: boolean;
      jurisdiction?: string;
      linked?: boolean;
    };
    const out = await searches.search({
      accountId: req.auth!.accountId,
      subject: q.subject,
      issuer: q.issuer,
      target: q.target,
      ...(q.source ? { source: q.source } : {}),
      ...(q.scope ? { scope: q.scope } : {}),
      ...(q.gpc !== undefined ? { gpc: q.gpc } : {}),
      ...(q.jurisdiction ? { jurisdiction: q.jurisdiction } : {}),
      current: q.current === true,
      ...(q.linked ? { linked: true } : {}),
      page: { limit: q.limit ?? 0, cursor: q.cursor ?? '' },
    });
    setNextPageLink(res, ctx, '/consent/v0/consents/search', req.query, out.nextCursor);
    res.json(out.events.map(consentEventJson));
  });

  r.get('/consents/token/:token', async (req, res) => {
    const token = String(req.params.token);
    if (!/^[A-Za-z0-9]{6}$/.test(token)) throw HttpProblem.field('token', 'must be 6 letters or digits');
    const out = await consent.getConsentsByToken({ accountId: req.auth!.accountId, token });
    if (!out.events.length) throw HttpProblem.notFound('No consent event with this token.');
    res.json(consentEventJson(out.events[0]!));
  });
}

/** GET /consents/statistics: the consent service's statistics of the calling application, as JSON. */
function statisticsRoute(r: Router, ctx: GatewayContext): void {
  const consent = ctx.clients.consent;
  r.get('/consents/statistics', async (req, res) => {
    const s = await consent.getStatistics({ accountId: req.auth!.accountId, appId: req.auth!.appId });
    res.json({
      appId: s.appId,
      total: s.total,
      accepted: s.accepted,
      declined: s.declined,
      noAction: s.noAction,
      distinctSubjects: s.distinctSubjects,
      gpcDeclines: s.gpcDeclines,
      jurisdictions: s.jurisdictions.map((j) => ({ jurisdiction: j.jurisdiction, events: j.events })),
      latestEventAt: s.latestEventAt ? s.latestEventAt.toISOString() : null,
      targets: s.targets.map((t) => ({
        target: t.target,
        events: t.events,
        currentAccepted: t.currentAccepted,
        currentDeclined: t.currentDeclined,
        currentNoAction: t.currentNoAction,
        currentExpired: t.currentExpired,
        currentRenewalRequired: t.currentRenewalRequired,
        currentGpcDeclines: t.currentGpcDeclines,
      })),
    });
  });
}
