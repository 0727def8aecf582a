import type { Writable } from 'node:stream';
import { constants as zlibConstants, createGzip, type Gzip } from 'node:zlib';
import type { Request, RequestHandler, Response, Router } from 'express';
import { status as Code } from '@grpc/grpc-js';
import { fieldErrorsOf, isServiceError, mapLimit, type FieldError } from '@accord/common';
import { consentEventJson, contracts, type consentv1 } from '@accord/proto';
import { ConsentBatches } from '../consent-batches';
import type { GatewayContext } from '../context';
import { wireDate } from '../date-time';
import { storingEvents } from '../middleware/limits';
import { toFieldErrors, validateBody, validateQuery, validatorFor } from '../openapi/validate';
import { HttpProblem } from '../problem';
import { strictRouter } from './router';

/** Business limits of the consent API, from the contract (not from the OpenAPI text). */
const { maxBatch: CONSENT_MAX_BATCH, exportJsonMax: EXPORT_JSON_MAX_DOC } = contracts.consent.LIMITS;

/** The REST JSON of a consent event (kept in @accord/proto, shared with the admin CLI's export). */
export { consentEventJson };

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

/**
 * A form-encoded body as one event object: every value is a string; `action` is `true`,
 * `false`, `null` or absent (null); empty optional values count as absent.
 */
function fromForm(body: Record<string, unknown>): Record<string, unknown> {
  const errors: FieldError[] = [];
  // no prototype: a field named __proto__ is a field like any other (and, unknown, refused by the validator)
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(body)) {
    if (Array.isArray(v)) {
      errors.push({ field: `/${k}`, message: 'is repeated' });
      continue;
    }
    if (k === 'action') {
      if (v === 'true') out.action = true;
      else if (v === 'false') out.action = false;
      else if (v === 'null' || v === '') out.action = null;
      else errors.push({ field: '/action', message: 'must be one of: true, false, null' });
      continue;
    }
    if (k === 'gpc') {
      if (v === 'true' || v === 'false') out.gpc = v === 'true';
      else if (v !== '') errors.push({ field: '/gpc', message: 'must be one of: true, false' });
      continue;
    }
    if (v === '' && k !== 'subject' && k !== 'issuer' && k !== 'target') continue;
    out[k] = k === 'targetVersion' && typeof v === 'string' && /^[0-9]{1,10}$/.test(v) ? Number(v) : v;
  }
  if (errors.length) throw HttpProblem.validation(errors);
  return out;
}

/** One event of the body as the consent service's input; `at` is its JSON pointer prefix (`` or `/3`). */
function toInput(o: Record<string, unknown>, at: string): consentv1.ConsentInput {
  const input: consentv1.ConsentInput = { subject: o.subject as string, issuer: o.issuer as string, target: o.target as string };
  for (const f of ['source', 'scope', 'delegate'] as const) if (typeof o[f] === 'string' && o[f] !== '') input[f] = o[f] as string;
  if (typeof o.action === 'boolean') input.action = o.action;
  if (typeof o.targetVersion === 'number') input.targetVersion = o.targetVersion;
  if (typeof o.expiresAt === 'string') input.expiresAt = wireDate(o.expiresAt, `${at}/expiresAt`);
  if (typeof o.gpc === 'boolean') input.gpc = o.gpc;
  for (const f of ['tcString', 'gppString', 'jurisdiction'] as const) if (typeof o[f] === 'string' && o[f] !== '') input[f] = o[f] as string;
  return input;
}

/**
 * `Sec-GPC: 1` (the Global Privacy Control header a browser sends with every request while the
 * signal is on): every event of the request that does not say `gpc` gets `gpc: true`. Other
 * values mean nothing (the specification defines only "1").
 */
export function withGpcHeader(req: Request, inputs: consentv1.ConsentInput[]): consentv1.ConsentInput[] {
  if (req.get('sec-gpc')?.trim() !== '1') return inputs;
  return inputs.map((i) => (i.gpc === undefined ? { ...i, gpc: true } : i));
}

/** The body of POST /consents as a list of events, validated whole; `single` when one object was sent. */
function parseCreateBody(req: Request): { items: Record<string, unknown>[]; single: boolean } {
  let body: unknown = req.body;
  if (body === undefined) throw HttpProblem.field('/', 'a body is required: a JSON event object, a JSON array of them, or form fields');
  if (typeof req.is('application/x-www-form-urlencoded') === 'string') body = fromForm(body as Record<string, unknown>);
  const single = !Array.isArray(body);
  const items = single ? [body] : (body as unknown[]);
  if (!single && items.length === 0) throw HttpProblem.field('/', 'the array is empty; send at least one event');
  if (items.length > CONSENT_MAX_BATCH) {
    throw new HttpProblem(413, 'Payload too large', `At most ${CONSENT_MAX_BATCH} events per request; this one has ${items.length}.`);
  }
  const validate = validatorFor('ConsentInput', 'body');
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    if (!validate(item)) {
      for (const e of toFieldErrors(validate.errors, 'body'))
        errors.push({ field: single ? e.field : `/${i}${e.field === '/' ? '' : e.field}`, message: e.message });
    }
  });
  if (errors.length) throw HttpProblem.validation(errors);
  return { items: items as Record<string, unknown>[], single };
}

/** Service field errors use array paths (/0/subject); a single-object body gets /subject. */
async function withSinglePaths<T>(single: boolean, p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (single && isServiceError(err) && err.code === Code.INVALID_ARGUMENT) {
      const fields = fieldErrorsOf(err).map((f) => ({ field: f.field.replace(/^\/0(?=\/|$)/, '') || '/', message: f.message }));
      if (fields.length) throw HttpProblem.validation(fields);
    }
    throw err;
  }
}

const ID = /^[0-9a-f]{32}$/;
/** Events per page an export reads (its memory bound). */
const EXPORT_PAGE = contracts.consent.LIMITS.exportPage;
const EXPORT_JSON_MAX = EXPORT_JSON_MAX_DOC;

const SEARCH_PAGE_MAX = contracts.consent.LIMITS.searchPageMax;

/**
 * A subject's current states for the (issuer, target, scope) its exported events name, exactly as
 * `search?current=true` answers them: the consent service decides which event is current and
 * marks `expired` and `renewalRequired`; the gateway keeps no rule of its own. One search per
 * (issuer, target), page by page, newest first overall.
 */
export async function currentStatesOf(
  consent: Pick<GatewayContext['clients']['consent'], 'searchConsents'>,
  accountId: string,
  subject: string,
  events: consentv1.ConsentEvent[],
): Promise<consentv1.ConsentEvent[]> {
  const key = (e: consentv1.ConsentEvent, withScope = true) => JSON.stringify(withScope ? [e.issuer, e.target, e.scope] : [e.issuer, e.target]);
  const named = new Set(events.map((e) => key(e)));
  const pairs = [...new Map(events.map((e) => [key(e, false), e])).values()];
  const states = await mapLimit(pairs, 8, async ({ issuer, target }) => {
    const out: consentv1.ConsentEvent[] = [];
    let cursor = '';
    do {
      const page = await consent.searchConsents({ accountId, subject, issuer, target, current: true, page: { limit: SEARCH_PAGE_MAX, cursor } });
      out.push(...page.events);
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  });
  return states
    .flat()
    .filter((e) => named.has(key(e)))
    .sort((a, b) => (a.id < b.id ? 1 : -1));
}

/**
 * The body of an export: written as is, or gzip-compressed when the client accepts it
 * (`Content-Encoding: gzip`), flushed after every page so that a client sees progress.
 * `write` resolves when the client has taken the chunk (back-pressure), or the client left.
 */
export class ExportBody {
  closed = false;
  private readonly sink: Writable;
  private readonly gzip?: Gzip;

  constructor(
    req: Request,
    private readonly res: Response,
  ) {
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      res.setHeader('Content-Encoding', 'gzip');
      this.gzip = createGzip();
    }
    this.sink = this.gzip ?? res;
    res.on('close', () => {
      this.closed = true;
      this.gzip?.destroy();
    });
  }

  /** Sends the headers (the status and headers must be set before). */
  async start(): Promise<void> {
    if (this.gzip) this.gzip.pipe(this.res);
    else this.res.flushHeaders();
  }

  async write(chunk: string): Promise<void> {
    if (this.closed) return;
    if (!this.sink.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.sink.off('drain', done).off('close', done);
          resolve();
        };
        this.sink.on('drain', done).on('close', done);
      });
    }
    if (this.gzip && !this.closed) await new Promise<void>((resolve) => this.gzip!.flush(zlibConstants.Z_SYNC_FLUSH, () => resolve()));
  }

  end(): void {
    this.sink.end();
  }

  destroy(): void {
    this.gzip?.destroy();
    this.res.destroy();
  }
}

/** /consent/v0: consent events (write-once), receipts, search, statistics; `eventLimit` guards the route that stores events. */
export function consentRoutes(ctx: GatewayContext, eventLimit: RequestHandler): Router {
  const r = strictRouter();
  const consent = ctx.clients.consent;
  // concurrent one-event POSTs of an application share one call to the consent service
  const batches = new ConsentBatches((request) => consent.createConsents(request), { maxBatch: CONSENT_MAX_BATCH });

  r.post('/consents', eventLimit, async (req, res) => {
    const auth = req.auth!;
    const { items, single } = parseCreateBody(req);
    const inputs = withGpcHeader(
      req,
      items.map((item, i) => toInput(item, single ? '' : `/${i}`)),
    );
    if (single) {
      const event = await withSinglePaths(
        true,
        storingEvents(res, () => batches.add(auth.accountId, auth.appId, inputs[0]!)),
      );
      res.status(201).setHeader('Location', `${ctx.baseUrl}/consent/v0/consents/${event.id}`);
      res.json(consentEventJson(event));
      return;
    }
    const out = await withSinglePaths(
      single,
      storingEvents(res, () => consent.createConsents({ accountId: auth.accountId, appId: auth.appId, events: inputs })),
    );
    res.status(201).json(out.events.map(consentEventJson));
  });

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
    };
    const out = await consent.searchConsents({
      accountId: req.auth!.accountId,
      subject: q.subject,
      issuer: q.issuer,
      target: q.target,
      ...(q.source ? { source: q.source } : {}),
      ...(q.scope ? { scope: q.scope } : {}),
      ...(q.gpc !== undefined ? { gpc: q.gpc } : {}),
      ...(q.jurisdiction ? { jurisdiction: q.jurisdiction } : {}),
      current: q.current === true,
      page: { limit: q.limit ?? 0, cursor: q.cursor ?? '' },
    });
    if (out.nextCursor) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(req.query as Record<string, unknown>)) if (k !== 'cursor' && typeof v === 'string') params.set(k, v);
      params.set('cursor', out.nextCursor);
      res.setHeader('Link', `<${ctx.baseUrl}/consent/v0/consents/search?${params.toString()}>; rel="next"`);
    }
    res.json(out.events.map(consentEventJson));
  });

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
    if (d.targetVersion !== undefined) out.targetVersion = d.targetVersion;
    if (d.expiresAt !== undefined) out.expiresAt = d.expiresAt.toISOString();
    if (d.regime) out.regime = d.regime as NonNullable<contracts.consent.DecisionJson['regime']>;
    if (d.vendor !== undefined) Object.assign(out, { vendor: d.vendor, purpose: d.purpose, gvlVersion: d.gvlVersion });
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

  r.get('/consents/export', validateQuery('ConsentExportQuery'), async (req, res) => {
    const q = res.locals.query as { since?: string; until?: string; appId?: string; target?: string; subject?: string; cursor?: string };
    // the answer depends on both: say so to caches
    res.setHeader('Vary', 'Accept, Accept-Encoding');
    const asJson = req.accepts(['application/x-ndjson', 'application/json']) === 'application/json';
    if (asJson) {
      const errors: FieldError[] = [];
      if (!q.subject)
        errors.push({ field: 'subject', message: 'is required with Accept: application/json (one subject’s export); the account’s events export as NDJSON' });
      if (q.cursor) errors.push({ field: 'cursor', message: 'is for resuming an NDJSON export; the JSON form is one document' });
      if (errors.length) throw HttpProblem.validation(errors);
    }
    const base: consentv1.ExportConsentsRequest = { accountId: req.auth!.accountId, cursor: q.cursor ?? '', limit: EXPORT_PAGE, withTotal: false };
    if (q.since) base.since = wireDate(q.since, 'since');
    if (q.until) base.until = wireDate(q.until, 'until');
    if (q.appId) base.appId = q.appId;
    if (q.target) base.target = q.target;
    if (q.subject) base.subject = q.subject;
    // the first page (and the size estimate) before the headers, so that a bad request is still a problem answer
    let page = await consent.exportConsents({ ...base, withTotal: true });

    if (asJson) {
      // an exact count over the limit refuses at once; else read up to one event past it
      const events: consentv1.ConsentEvent[] = [...page.events];
      const tooMany = () => events.length > EXPORT_JSON_MAX || (page.totalExact && (page.total ?? 0) > EXPORT_JSON_MAX);
      while (page.nextCursor && !tooMany()) {
        page = await consent.exportConsents({ ...base, cursor: page.nextCursor });
        events.push(...page.events);
      }
      if (tooMany()) {
        throw new HttpProblem(
          413,
          'Export too large for JSON',
          `This subject has more than ${EXPORT_JSON_MAX} events (with these filters): ask for NDJSON (Accept: application/x-ndjson, the default), which streams any number and resumes with cursor, or narrow with since/until/appId/target.`,
          [{ field: 'subject', message: `has more than ${EXPORT_JSON_MAX} events; export it as NDJSON` }],
        );
      }
      const current = await currentStatesOf(consent, req.auth!.accountId, q.subject!, events);
      res.status(200).setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('X-Total-Count', String(events.length));
      const out = new ExportBody(req, res);
      await out.start();
      await out.write(JSON.stringify({ subject: q.subject, events: events.map(consentEventJson), current: current.map(consentEventJson) }));
      out.end();
      return;
    }

    res.status(200).setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    if (page.total !== undefined) res.setHeader('X-Total-Count', String(page.total));
    const out = new ExportBody(req, res);
    await out.start();
    try {
      for (;;) {
        // the next page is read while this one goes out (two pages in memory at most): the
        // database and the client's network overlap instead of taking turns
        const next = page.nextCursor ? consent.exportConsents({ ...base, cursor: page.nextCursor }) : undefined;
        next?.catch(() => undefined); // awaited below, unless the client left
        const chunk = page.events.map((e) => `${JSON.stringify(consentEventJson(e))}\n`).join('');
        // wait until the client has taken this page before taking another
        if (chunk) await out.write(chunk);
        if (out.closed || !next) break;
        page = await next;
      }
      out.end();
    } catch (err) {
      // headers are sent: end the stream early; the client resumes with the id of its last line
      ctx.logger.warn({ err }, 'consent export ended early');
      out.destroy();
    }
  });

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

  r.get('/consents/token/:token', async (req, res) => {
    const token = String(req.params.token);
    if (!/^[A-Za-z0-9]{6}$/.test(token)) throw HttpProblem.field('token', 'must be 6 letters or digits');
    const out = await consent.getConsentsByToken({ accountId: req.auth!.accountId, token });
    if (!out.events.length) throw HttpProblem.notFound('No consent event with this token.');
    res.json(consentEventJson(out.events[0]!));
  });

  r.get('/consents/:id/receipt', async (req, res) => {
    const id = String(req.params.id);
    if (!ID.test(id)) throw HttpProblem.notFound('No such consent event.');
    let out: consentv1.GetReceiptResponse;
    try {
      out = await consent.getReceipt({ accountId: req.auth!.accountId, id });
    } catch (err) {
      // the event's subject was erased: a receipt names its subject, so none is issued any more
      if (isServiceError(err) && err.code === Code.FAILED_PRECONDITION) throw new HttpProblem(410, 'Subject erased', err.details);
      throw err;
    }
    res.json({ receipt: out.receipt });
  });

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
    if (out.nextCursor) {
      const params = new URLSearchParams();
      if (q.limit) params.set('limit', String(q.limit));
      params.set('cursor', out.nextCursor);
      res.setHeader('Link', `<${ctx.baseUrl}/consent/v0/subjects/erasures?${params.toString()}>; rel="next"`);
    }
    res.json(out.erasures.map(erasureJson));
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

  r.get('/consents/:id', async (req, res) => {
    const id = String(req.params.id);
    if (!ID.test(id)) throw HttpProblem.notFound('No such consent event.');
    res.json(consentEventJson(await consent.getConsent({ accountId: req.auth!.accountId, id })));
  });

  // Events are immutable: no PUT, PATCH or DELETE anywhere.
  return r;
}
