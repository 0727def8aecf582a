import type { Request, RequestHandler, Router } from 'express';
import { status as Code } from '@grpc/grpc-js';
import { fieldErrorsOf, isServiceError, type FieldError } from '@accord/common';
import { consentEventJson, contracts, type consentv1 } from '@accord/proto';
import { ConsentBatches } from '../consent-batches';
import type { GatewayContext } from '../context';
import { wireDate } from '../date-time';
import { storingEvents } from '../middleware/limits';
import { toFieldErrors, validatorFor } from '../openapi/validate';
import { HttpProblem } from '../problem';

/** Business limits of the consent API, from the contract (not from the OpenAPI text). */
const CONSENT_MAX_BATCH = contracts.consent.LIMITS.maxBatch;

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
  for (const f of ['tcString', 'gppString', 'jurisdiction', 'addtlConsent'] as const) if (typeof o[f] === 'string' && o[f] !== '') input[f] = o[f] as string;
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

/** POST /consents: one event (JSON or form) or an array; `eventLimit` guards it. */
export function createConsentRoutes(r: Router, ctx: GatewayContext, eventLimit: RequestHandler): void {
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
}
