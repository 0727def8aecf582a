import { status as Code } from '@grpc/grpc-js';
import { AppError, implement, InvalidArgumentError, toServiceError, type Handlers, type Logger } from '@accord/common';
import { consentv1, type consentlinksv1 } from '@accord/proto';
import type { Consents } from '../app/consents';
import type { DecisionAnswer } from '../app/decisions';
import { subjectExport, type SubjectExportFilter } from '../app/exports';
import type { ExportQuery } from '../app/records';
import type { ConsentInput } from '../domain/consent';
import type { LinkEvent } from '../domain/link';
import { eventMessage } from '../domain/wire';
import { countRecorded } from '../metrics';
import type { ConsentLog } from '../app/log';
import type { ErasureRecord } from '../app/ports';

function erasureToProto(e: ErasureRecord): consentv1.Erasure {
  const out: consentv1.Erasure = {
    id: e.id,
    subjectHash: e.subjectHash,
    appId: e.appId ?? '',
    clientId: e.clientId ?? '',
    erasedAt: new Date(e.erasedAt),
    events: e.events,
    states: e.states,
  };
  if (e.issuer) out.issuer = e.issuer;
  return out;
}

function linkMessage(l: LinkEvent): consentlinksv1.SubjectLink {
  const out: consentlinksv1.SubjectLink = { id: l.id, appId: l.appId, issuer: l.issuer, identity: l.identity, createdAt: l.createdAt };
  if (l.subject !== null) out.subject = l.subject;
  if (l.importedAt) out.importedAt = l.importedAt;
  if (l.erasedAt) out.erasedAt = l.erasedAt;
  return out;
}

function fromProtoInput(i: consentv1.ConsentInput): ConsentInput {
  const out: ConsentInput = { subject: i.subject, issuer: i.issuer, target: i.target, action: i.action ?? null };
  if (i.source !== undefined) out.source = i.source;
  if (i.scope !== undefined) out.scope = i.scope;
  if (i.delegate !== undefined) out.delegate = i.delegate;
  if (i.targetVersion !== undefined) out.targetVersion = i.targetVersion;
  if (i.expiresAt !== undefined) out.expiresAt = i.expiresAt;
  if (i.gpc !== undefined) out.gpc = i.gpc;
  if (i.tcString !== undefined) out.tcString = i.tcString;
  if (i.gppString !== undefined) out.gppString = i.gppString;
  if (i.jurisdiction !== undefined) out.jurisdiction = i.jurisdiction;
  if (i.addtlConsent !== undefined) out.addtlConsent = i.addtlConsent;
  return out;
}

function decisionMessage(d: DecisionAnswer): consentv1.Decision {
  const out: consentv1.Decision = { subject: d.subject, issuer: d.issuer, target: d.target, scope: d.scope, allowed: d.allowed, basis: d.basis };
  if (d.event) {
    out.eventId = d.event.id;
    if (d.identity !== undefined) out.identity = d.identity;
    if (d.event.targetVersion !== undefined) out.targetVersion = d.event.targetVersion;
    if (d.event.expiresAt !== undefined) out.expiresAt = d.event.expiresAt;
  }
  if (d.regime) out.regime = { key: d.regime.key, model: d.regime.model, gpc: d.regime.gpc };
  if (d.vendor !== undefined) Object.assign(out, { vendor: d.vendor, purpose: d.purpose, gvlVersion: d.gvlVersion });
  if (d.atpVendor !== undefined) out.atpVendor = d.atpVendor;
  return out;
}

/** An export's filters, cursor, page size and total (ExportConsents' and ExportConsentRecords'). */
function exportFilter(req: consentv1.ExportConsentsRequest | consentv1.ExportConsentRecordsRequest): ExportQuery {
  const p: ExportQuery = { accountId: req.accountId, limit: req.limit };
  if (req.appId) p.appId = req.appId;
  if (req.target) p.target = req.target;
  if (req.subject) p.subject = req.subject;
  if (req.since) p.since = req.since;
  if (req.until) p.until = req.until;
  if (req.cursor) p.cursor = req.cursor;
  if (req.withTotal) p.withTotal = true;
  return p;
}

/** Searches one SearchConsentsBatch call holds at most. */
export const SEARCH_BATCH_MAX = 1000;

/** gRPC handlers: proto ⇄ domain translation only. */
export function consentHandlers(consents: Consents, logger: Logger, log: ConsentLog): consentv1.ConsentServiceServer {
  const search = async (req: consentv1.SearchConsentsRequest): Promise<consentv1.SearchConsentsResponse> => {
    const params: Parameters<Consents['search']>[0] = {
      accountId: req.accountId,
      subject: req.subject,
      issuer: req.issuer,
      target: req.target,
      current: req.current,
    };
    if (req.source) params.source = req.source;
    if (req.scope) params.scope = req.scope;
    if (req.gpc !== undefined) params.gpc = req.gpc;
    if (req.jurisdiction) params.jurisdiction = req.jurisdiction;
    if (req.page?.limit) params.limit = req.page.limit;
    if (req.page?.cursor) params.cursor = req.page.cursor;
    if (req.linked) params.linked = true;
    const page = await consents.search(params);
    return { events: page.events.map(eventMessage), nextCursor: page.next ?? '' };
  };
  const impl: Handlers<consentv1.ConsentServiceServer> = {
    async createConsents(req, ctx) {
      const events = await consents.create(req.accountId, req.appId, req.events.map(fromProtoInput), ctx.deadlineMs);
      countRecorded(events);
      return { events: events.map(eventMessage) };
    },
    async getConsent(req) {
      return eventMessage(await consents.get(req.accountId, req.id));
    },
    async getConsentsByToken(req) {
      return { events: (await consents.byToken(req.accountId, req.token)).map(eventMessage) };
    },
    searchConsents: search,
    async searchConsentsBatch(req) {
      if (!req.searches.length || req.searches.length > SEARCH_BATCH_MAX)
        throw InvalidArgumentError.field('searches', `must hold 1 to ${SEARCH_BATCH_MAX} searches`);
      const results = await Promise.all(
        req.searches.map(async (q): Promise<consentv1.SearchConsentsResult> => {
          try {
            return { response: await search(q) };
          } catch (err) {
            const failure = toServiceError(err, (e) => logger.error({ err: e }, 'consent: a search of a batch failed'));
            return { failure: { code: failure.code ?? Code.INTERNAL, message: failure.details ?? '', fields: err instanceof AppError ? err.fields : [] } };
          }
        }),
      );
      return { results };
    },
    async getReceipt(req) {
      return { receipt: await consents.receiptFor(req.accountId, req.id) };
    },
    async getConsentRecord(req) {
      return { jsonld: await consents.record(req.accountId, req.id, req.receipt) };
    },
    async getStatistics(req) {
      // the domain's Statistics is the message field for field (the type checks it)
      return consents.statistics(req.accountId, req.appId);
    },
    async getCurrentStates(req) {
      return { events: (await consents.currentStates(req.accountId, req.subject, req.issuer, req.targets)).map(eventMessage) };
    },
    async exportConsents(req) {
      const p: Parameters<Consents['exportPage']>[0] = exportFilter(req);
      if (req.links) p.links = true;
      const page = await consents.exportPage(p);
      return {
        events: page.events.map(eventMessage),
        links: (page.links ?? []).map(linkMessage),
        nextCursor: page.next ?? '',
        ...(page.total ? { total: page.total.total, totalExact: page.total.exact } : { totalExact: false }),
      };
    },
    async *exportConsentRecords(req) {
      for await (const page of consents.exportRecords(exportFilter(req)))
        yield { jsonld: page.records, ...(page.total ? { total: page.total.total, totalExact: page.total.exact } : { totalExact: false }) };
    },
    async exportSubject(req) {
      const f: SubjectExportFilter = { accountId: req.accountId, subject: req.subject };
      if (req.appId) f.appId = req.appId;
      if (req.target) f.target = req.target;
      if (req.since) f.since = req.since;
      if (req.until) f.until = req.until;
      const out = await subjectExport(consents, f);
      return { events: out.events.map(eventMessage), current: out.current.map(eventMessage), links: out.links.map(linkMessage) };
    },
    async eraseSubject(req) {
      const input: { subject: string; issuer?: string } = { subject: req.subject };
      if (req.issuer) input.issuer = req.issuer;
      return erasureToProto(await consents.erase(req.accountId, req.appId, req.clientId, input));
    },
    async listErasures(req) {
      const page = await consents.erasures(req.accountId, req.page?.limit, req.page?.cursor);
      return { erasures: page.erasures.map(erasureToProto), nextCursor: page.next ?? '' };
    },
    async decide(req) {
      const items = req.items.map((i) => ({
        subject: i.subject,
        issuer: i.issuer,
        target: i.target,
        scope: i.scope,
        jurisdiction: i.jurisdiction,
        gpc: i.gpc,
        vendor: i.vendor,
        purpose: i.purpose,
        atpVendor: i.atpVendor,
      }));
      const out = await consents.decide(req.accountId, items, req.at);
      return { at: out.at, decisions: out.decisions.map(decisionMessage) };
    },
    async getReceiptKeys() {
      return { jwks: { keys: consents.receiptKeys() } };
    },
    async getTreeHead(req) {
      return log.treeHead(req.accountId);
    },
    async getInclusionProof(req) {
      return log.inclusionProof(req.accountId, req.id, req.treeSize);
    },
    async getConsistencyProof(req) {
      const out = await log.consistencyProof(req.accountId, req.first, req.second);
      return { first: out.first, second: out.second, proof: out.proof };
    },
    async linkSubject(req) {
      return linkMessage(
        await consents.links.link(req.accountId, req.appId, {
          issuer: req.issuer,
          identity: req.identity,
          subject: req.subject === undefined ? null : req.subject,
        }),
      );
    },
    async listSubjectLinks(req) {
      const q: Parameters<Consents['links']['list']>[1] = { issuer: req.issuer, history: req.history };
      if (req.identity) q.identity = req.identity;
      if (req.subject) q.subject = req.subject;
      if (req.page?.limit) q.limit = req.page.limit;
      if (req.page?.cursor) q.cursor = req.page.cursor;
      const out = await consents.links.list(req.accountId, q);
      return { links: out.links.map(linkMessage), nextCursor: out.next ?? '' };
    },
  };
  return implement<consentv1.ConsentServiceServer>(impl, logger);
}
