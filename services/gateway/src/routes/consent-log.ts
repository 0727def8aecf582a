import type { Router } from 'express';
import { status as Code } from '@grpc/grpc-js';
import { isServiceError } from '@accord/common';
import type { consentv1 } from '@accord/proto';
import type { GatewayContext } from '../context';
import { validateQuery } from '../openapi/validate';
import { HttpProblem } from '../problem';
import { consentRecord } from './dpv';
import { asksJsonLd, sendJsonLd } from './jsonld';

/** An event id as the paths take it. */
export const EVENT_ID = /^[0-9a-f]{32}$/;

/** The evidence of an event: its receipt and its inclusion proof; the log's tree head and consistency proofs. */
export function evidenceRoutes(r: Router, ctx: GatewayContext): void {
  const consent = ctx.clients.consent;
  const ID = EVENT_ID;
  r.get('/consents/:id/receipt', async (req, res) => {
    const id = String(req.params.id);
    if (!ID.test(id)) throw HttpProblem.notFound('No such consent event.');
    const jsonLd = asksJsonLd(req);
    const accountId = req.auth!.accountId;
    try {
      if (jsonLd) sendJsonLd(res, await consentRecord(ctx, accountId, id, true));
      else res.json({ receipt: (await consent.getReceipt({ accountId, id })).receipt });
    } catch (err) {
      // the event's subject was erased: a receipt names its subject, so none is issued any more
      if (isServiceError(err) && err.code === Code.FAILED_PRECONDITION) throw new HttpProblem(410, 'Subject erased', err.details);
      throw err;
    }
  });

  r.get('/consents/:id/proof', validateQuery('ConsentProofQuery'), async (req, res) => {
    const id = String(req.params.id);
    if (!ID.test(id)) throw HttpProblem.notFound('No such consent event.');
    const q = res.locals.query as { treeSize?: number };
    let p: consentv1.InclusionProof;
    try {
      p = await consent.getInclusionProof({ accountId: req.auth!.accountId, id, ...(q.treeSize !== undefined ? { treeSize: q.treeSize } : {}) });
    } catch (err) {
      if (isServiceError(err) && err.code === Code.ABORTED) throw new HttpProblem(409, 'Not sequenced yet', err.details, [], { 'Retry-After': '2' });
      throw err;
    }
    res.json({ leafIndex: p.leafIndex, treeSize: p.treeSize, leafHash: p.leafHash, auditPath: p.auditPath });
  });

  r.get('/log/tree-head', async (req, res) => {
    const h = await consent.getTreeHead({ accountId: req.auth!.accountId });
    res.json({ treeSize: h.treeSize, rootHash: h.rootHash, timestamp: h.timestamp, signature: h.signature });
  });

  r.get('/log/consistency', validateQuery('ConsentConsistencyQuery'), async (req, res) => {
    const q = res.locals.query as { first: number; second: number };
    const c = await consent.getConsistencyProof({ accountId: req.auth!.accountId, first: q.first, second: q.second });
    res.json({ first: c.first, second: c.second, proof: c.proof });
  });
}
