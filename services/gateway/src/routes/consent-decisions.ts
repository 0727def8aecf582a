import type { Router } from 'express';
import { status as Code } from '@grpc/grpc-js';
import { fieldErrorsOf, isServiceError } from '@accord/common';
import type { contracts, consentv1 } from '@accord/proto';
import type { GatewayContext } from '../context';
import { wireDate } from '../date-time';
import { validateBody, validateQuery } from '../openapi/validate';
import { HttpProblem } from '../problem';

/** POST and GET /decisions. */
export function decisionRoutes(r: Router, ctx: GatewayContext): void {
  const consent = ctx.clients.consent;
  // "May I process this?" (docs/consent.md, Decisions): the consent service decides, the gateway translates
  const decisionJson = (d: consentv1.Decision): contracts.consent.DecisionJson => {
    const out: contracts.consent.DecisionJson = {
      subject: d.subject,
      issuer: d.issuer,
      target: d.target,
      scope: d.scope,
      allowed: d.allowed,
      basis: d.basis as contracts.consent.DecisionJson['basis'],
    };
    if (d.eventId !== undefined) out.eventId = d.eventId;
    if (d.identity !== undefined) out.identity = d.identity;
    if (d.targetVersion !== undefined) out.targetVersion = d.targetVersion;
    if (d.expiresAt !== undefined) out.expiresAt = d.expiresAt.toISOString();
    if (d.regime) out.regime = d.regime as NonNullable<contracts.consent.DecisionJson['regime']>;
    if (d.vendor !== undefined) Object.assign(out, { vendor: d.vendor, purpose: d.purpose, gvlVersion: d.gvlVersion });
    if (d.atpVendor !== undefined) out.atpVendor = d.atpVendor;
    // evidence after the fields it is about
    if (d.eventId !== undefined) {
      const at = `${ctx.baseUrl}/consent/v0/consents/${d.eventId}`;
      out.evidence = { receipt: `${at}/receipt`, proof: `${at}/proof` };
    }
    return out;
  };
  const decisionItem = (o: Record<string, unknown>): consentv1.DecisionItem => {
    const item: consentv1.DecisionItem = { subject: o.subject as string, issuer: o.issuer as string, target: o.target as string };
    if (typeof o.scope === 'string' && o.scope !== '') item.scope = o.scope;
    if (typeof o.jurisdiction === 'string' && o.jurisdiction !== '') item.jurisdiction = o.jurisdiction;
    if (typeof o.gpc === 'boolean') item.gpc = o.gpc;
    if (typeof o.vendor === 'number') item.vendor = o.vendor;
    if (typeof o.purpose === 'number') item.purpose = o.purpose;
    if (typeof o.atpVendor === 'number') item.atpVendor = o.atpVendor;
    return item;
  };

  r.post('/decisions', validateBody('DecisionRequest'), async (req, res) => {
    const body = req.body as { at?: string; items: Record<string, unknown>[] };
    const out = await consent.decide({
      accountId: req.auth!.accountId,
      items: body.items.map(decisionItem),
      ...(body.at !== undefined ? { at: wireDate(body.at, '/at') } : {}),
    });
    res.json({ at: out.at!.toISOString(), decisions: out.decisions.map(decisionJson) });
  });

  r.get('/decisions', validateQuery('DecisionQuery'), async (req, res) => {
    const q = res.locals.query as Record<string, unknown> & { at?: string };
    let out: consentv1.DecideResponse;
    try {
      out = await consent.decide({ accountId: req.auth!.accountId, items: [decisionItem(q)], ...(q.at !== undefined ? { at: wireDate(q.at, 'at') } : {}) });
    } catch (err) {
      // the service names /items/0/subject and /at: here they are query parameters
      if (isServiceError(err) && err.code === Code.INVALID_ARGUMENT) {
        const fields = fieldErrorsOf(err).map((f) => ({ field: f.field.replace(/^\/items\/0\//, '').replace(/^\//, ''), message: f.message }));
        if (fields.length) throw HttpProblem.validation(fields);
      }
      throw err;
    }
    res.json(decisionJson(out.decisions[0]!));
  });
}
