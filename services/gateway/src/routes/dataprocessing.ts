import { type Router, type Request, type Response } from 'express';
import { status as Code } from '@grpc/grpc-js';
import { isServiceError } from '@accord/common';
import { contracts, type dataprocessingv1 as pb } from '@accord/proto';
import type { GatewayContext } from '../context';
import { validateBody, validateQuery } from '../openapi/validate';
import { HttpProblem } from '../problem';
import { asksJsonLd, mapped, sendJsonLd } from './jsonld';
import { strictRouter } from './router';

/**
 * /dataprocessing/v0: groups, versioned specifications, their texts, and the views built from
 * a group (privacy-policy section, consent request, consent dashboard). HTTP ⇄ gRPC only; the
 * rules live in the dataprocessing service.
 */

const { GROUP_FIELDS, SPEC_FIELDS, TEXT_FIELDS } = contracts.dataprocessing;

type Body = Record<string, unknown>;

/** Proto fields from a JSON body: null and absent both leave the field unset. */
function fieldsFrom<T>(body: Body, names: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const n of names) if (body[n] !== undefined && body[n] !== null) out[n] = body[n];
  return out as T;
}

/**
 * A specification's fields from a JSON body: as fieldsFrom, `regimes` wrapped in its message, each
 * regime's `gpc` sent as proto3 says "absent" ('': the service's default) when the body omits it.
 */
function specFieldsFrom(body: Body): pb.SpecFields {
  const fields = fieldsFrom<pb.SpecFields>(body, SPEC_FIELDS);
  if (fields.regimes) {
    // a Map, as every proto map (ts-proto useMapType): every key sent reaches the service
    const byJurisdiction: pb.RegimeMap['byJurisdiction'] = new Map();
    for (const [k, v] of Object.entries(body.regimes as Record<string, { model: string; gpc?: string }>))
      byJurisdiction.set(k, { model: v.model, gpc: v.gpc ?? '' });
    fields.regimes = { byJurisdiction };
  }
  if (body.consentMode) fields.consentMode = { types: body.consentMode as string[] };
  return fields;
}

/** PATCH changes the fields it names (null resets one to its default); PUT replaces them all. */
function maskFrom(req: Request, names: readonly string[]): string[] {
  if (req.method === 'PUT') return [...names];
  return names.filter((n) => (req.body as Body)[n] !== undefined);
}

const iso = (d: Date | undefined) => (d ? d.toISOString() : null);

export function groupJson(g: pb.Group) {
  return { id: g.id, name: g.name, description: g.description, purpose: g.purpose, appId: g.appId, createdAt: iso(g.createdAt), updatedAt: iso(g.updatedAt) };
}

export function textJson(t: pb.Text) {
  return { id: Number(t.id), value: t.value, language: t.language, type: t.type, createdAt: iso(t.createdAt), updatedAt: iso(t.updatedAt) };
}

/** The processing a specification describes, as a specification and each item of a view answer it (unset optionals: null). */
function processingJson(p: Pick<pb.Spec, 'data' | 'purpose' | 'action' | 'sensitive' | 'location' | 'duration' | 'legalBasis' | 'externalHref'>) {
  const { data, purpose, action, sensitive, location } = p;
  return { data, purpose, action, sensitive, location, duration: p.duration ?? null, legalBasis: p.legalBasis || null, externalHref: p.externalHref || null };
}

export function specJson(s: pb.Spec) {
  return {
    id: s.id,
    groupId: s.groupId,
    ...processingJson(s),
    consentTarget: s.consentTarget,
    texts: s.texts.map(textJson),
    version: s.version,
    reconsentSince: s.reconsentSince,
    target: s.target,
    appId: s.appId,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
    archived: s.archived,
    deletedAt: iso(s.deletedAt),
    ...(s.consentValidityDays !== undefined ? { consentValidityDays: s.consentValidityDays } : {}),
    regimes: regimesJson(s.regimes),
    consentMode: s.consentMode,
  };
}

/** Regimes as answered: the service's normalised map (every specification has `*`; an older service sends none: the default). */
function regimesJson(r: ReadonlyMap<string, pb.Regime>): contracts.regimes.Regimes {
  const out: contracts.regimes.Regimes = {};
  for (const [k, v] of r) out[k] = { model: v.model as contracts.regimes.RegimeModel, gpc: (v.gpc || 'ignore') as contracts.regimes.RegimeGpc };
  return Object.keys(out).length ? contracts.regimes.sortedRegimes(out) : { ...contracts.regimes.DEFAULT_REGIMES };
}

function versionJson(v: pb.SpecVersion) {
  return { specId: v.specId, version: v.version, createdAt: iso(v.createdAt), appId: v.appId, current: v.current, spec: v.spec ? specJson(v.spec) : null };
}

function itemJson(i: pb.ConsentRequestItem) {
  const { specId, target, version, gpcApplied, consentMode } = i;
  return {
    specId,
    target,
    text: i.text ? textJson(i.text) : null,
    ...processingJson(i),
    version,
    regime: { key: i.regime?.key ?? '*', model: i.regime?.model ?? 'opt-in', gpc: i.regime?.gpc || 'ignore' },
    preselected: i.preselected ?? null,
    gpcApplied,
    regimes: regimesJson(i.regimes),
    consentMode,
  };
}

/** The spec's version as a strong entity tag. */
const etagOf = (s: pb.Spec) => `"${s.version}"`;

/**
 * `If-Match: "<version>"` → the expected version (undefined without the header or with `*`).
 * Anything else names no version the specification can have (versions start at 1), so it is
 * answered like a stale ETag: 412 (RFC 9110 §13.1.1), not 400.
 */
function expectedVersion(req: Request): number | undefined {
  const h = req.get('if-match');
  if (h === undefined || h.trim() === '*') return undefined;
  const m = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(h);
  return m ? Number(m[1]) : 0;
}

/** Pagination: the next page's URL in a Link header. */
function setNextLink(ctx: GatewayContext, req: Request, res: Response, nextCursor: string): void {
  if (!nextCursor) return;
  const url = new URL(req.originalUrl, 'http://x');
  url.searchParams.set('cursor', nextCursor);
  res.setHeader('Link', `<${ctx.baseUrl}${url.pathname}${url.search}>; rel="next"`);
}

function page(res: Response): { limit: number; cursor: string } {
  const q = res.locals.query as { limit?: number; cursor?: string };
  return { limit: q.limit ?? 0, cursor: q.cursor ?? '' };
}

/**
 * A view's language and text type, and where its subject is: the `jurisdiction` query, else the
 * header a trusted CDN or ingress sets (ACCORD_GEO_HEADER, e.g. CF-IPCountry) when configured
 * and it holds a known ISO code (CDNs send XX or T1 for unknown places: no jurisdiction then).
 * Without ACCORD_GEO_HEADER no header is read: a client cannot choose its regime that way.
 */
function viewParams(req: Request, res: Response, geoHeader: string | undefined): { language: string; textType: string; jurisdiction: string; gpc: boolean } {
  const q = res.locals.query as { lang?: string; type?: string; jurisdiction?: string; gpc?: boolean };
  const geo = geoHeader && !q.jurisdiction ? contracts.regimes.normalizeJurisdiction(req.get(geoHeader)?.trim() ?? '') : undefined;
  return { language: q.lang ?? '', textType: q.type ?? '', jurisdiction: q.jurisdiction ?? geo ?? '', gpc: q.gpc === true };
}

/** What a view of a group is about: the group, its title and caption, and the language they are in. */
const viewHeadJson = (v: { groupId: string; title: string; caption: string; language: string }) => ({
  groupId: v.groupId,
  title: v.title,
  caption: v.caption,
  language: v.language || null,
});

/** The jurisdiction and signal a view answered for. */
const viewSignalsJson = (v: { jurisdiction: string; gpc: boolean }) => ({ jurisdiction: v.jurisdiction || null, gpc: v.gpc });

export function dataprocessingRoutes(ctx: GatewayContext): Router {
  const r = strictRouter();
  const dp = ctx.clients.dataprocessing;
  const who = (req: Request) => ({ accountId: req.auth!.accountId, appId: req.auth!.appId });
  const param = (req: Request, name: string) => String(req.params[name]);
  /** A resource's PATCH and PUT (one update: `maskFrom` tells them apart) and its DELETE (204). */
  const writable = (
    path: string,
    [patchBody, putBody]: [string, string],
    update: (req: Request, res: Response) => Promise<void>,
    remove: (req: Request) => Promise<unknown>,
  ) => {
    r.patch(path, validateBody(patchBody), update);
    r.put(path, validateBody(putBody), update);
    r.delete(path, async (req, res) => {
      await remove(req);
      res.status(204).end();
    });
  };
  /** `writable` for a resource whose body is its fields (`names`): the update gets them and their mask, and answers as `json`. */
  const writableFields = <F, T>(
    path: string,
    bodies: [string, string],
    names: readonly string[],
    update: (req: Request, fields: F, updateMask: string[]) => Promise<T>,
    json: (t: T) => unknown,
    remove: (req: Request) => Promise<unknown>,
  ) => writable(path, bodies, async (req, res) => void res.json(json(await update(req, fieldsFrom<F>(req.body as Body, names), maskFrom(req, names)))), remove);

  // ---- groups ----
  r.post('/dpgroups', validateBody('DpGroupInput'), async (req, res) => {
    const g = await dp.createGroup({ ...who(req), fields: fieldsFrom(req.body as Body, GROUP_FIELDS) });
    res.status(201).location(`${ctx.baseUrl}/dataprocessing/v0/dpgroups/${g.id}`).json(groupJson(g));
  });
  r.get('/dpgroups', validateQuery('DpListQuery'), async (req, res) => {
    const out = await dp.listGroups({ accountId: req.auth!.accountId, page: page(res) });
    setNextLink(ctx, req, res, out.nextCursor);
    res.json(out.groups.map(groupJson));
  });

  r.get('/dpgroups/:groupId', async (req, res) => {
    res.json(groupJson(await dp.getGroup({ accountId: req.auth!.accountId, id: param(req, 'groupId') })));
  });
  writableFields(
    '/dpgroups/:groupId',
    ['DpGroupInput', 'DpGroupInput'],
    GROUP_FIELDS,
    (req, fields: pb.GroupFields, updateMask) => dp.updateGroup({ ...who(req), id: param(req, 'groupId'), fields, updateMask }),
    groupJson,
    (req) => dp.deleteGroup({ ...who(req), id: param(req, 'groupId') }),
  );

  // ---- specifications of a group ----
  r.post('/dpgroups/:groupId/specs', validateBody('DpSpecCreateRequest'), async (req, res) => {
    const body = req.body as Body;
    const texts = ((body.texts as Body[] | undefined) ?? []).map((t) => fieldsFrom<pb.TextFields>(t, TEXT_FIELDS));
    const s = await dp.createSpec({ ...who(req), groupId: param(req, 'groupId'), fields: specFieldsFrom(body), texts });
    res.status(201).location(s.target).setHeader('ETag', etagOf(s));
    res.json(specJson(s));
  });
  r.get('/dpgroups/:groupId/specs', validateQuery('DpListQuery'), async (req, res) => {
    const out = await dp.listSpecs({ accountId: req.auth!.accountId, groupId: param(req, 'groupId'), page: page(res) });
    setNextLink(ctx, req, res, out.nextCursor);
    res.json(out.specs.map(specJson));
  });

  // ---- views of a group ----
  const geoHeader = ctx.config.ACCORD_GEO_HEADER;
  r.get('/dpgroups/:groupId/policy', validateQuery('DpPolicyQuery'), async (req, res) => {
    const { language, textType } = viewParams(req, res, undefined);
    const out = await dp.getGroupPolicy({ accountId: req.auth!.accountId, groupId: param(req, 'groupId'), language, textType });
    if (out.language) res.setHeader('Content-Language', out.language);
    res.type('text/html; charset=utf-8').send(out.html);
  });

  r.get('/dpgroups/:groupId/consent-request', validateQuery('DpViewQuery'), async (req, res) => {
    const out = await dp.getConsentRequest({ accountId: req.auth!.accountId, groupId: param(req, 'groupId'), ...viewParams(req, res, geoHeader) });
    if (geoHeader) res.setHeader('Vary', geoHeader);
    res.json({ ...viewHeadJson(out), ...viewSignalsJson(out), items: out.items.map(itemJson) });
  });

  r.get('/dpgroups/:groupId/dashboard', validateQuery('DpDashboardQuery'), async (req, res) => {
    const q = res.locals.query as { subject: string; issuer: string };
    const out = await dp.getDashboard({
      accountId: req.auth!.accountId,
      groupId: param(req, 'groupId'),
      subject: q.subject,
      issuer: q.issuer,
      ...viewParams(req, res, geoHeader),
    });
    if (geoHeader) res.setHeader('Vary', geoHeader);
    res.json({
      ...viewHeadJson(out),
      subject: out.subject,
      issuer: out.issuer,
      ...viewSignalsJson(out),
      items: out.items.map((i) => ({
        ...itemJson(i.item!),
        state: i.state,
        scopes: i.scopes.map((s) => ({
          scope: s.scope,
          state: s.state,
          eventId: s.eventId,
          createdAt: iso(s.createdAt),
          ...(s.targetVersion !== undefined ? { targetVersion: s.targetVersion } : {}),
          ...(s.renewalRequired ? { renewalRequired: true } : {}),
          ...(s.gpc !== undefined ? { gpc: s.gpc } : {}),
        })),
      })),
    });
  });

  // ---- specifications ----
  r.get('/dpspecs/:specId', async (req, res) => {
    const jsonLd = asksJsonLd(req);
    const s = await dp.getSpec({ accountId: req.auth!.accountId, id: param(req, 'specId') });
    res.setHeader('ETag', etagOf(s));
    if (jsonLd)
      sendJsonLd(
        res,
        mapped('specification', () => contracts.dpv.specDocument(specJson(s))),
      );
    else res.json(specJson(s));
  });
  writable(
    '/dpspecs/:specId',
    ['DpSpecPatchRequest', 'DpSpecPutRequest'],
    async (req, res) => {
      const expected = expectedVersion(req);
      try {
        const s = await dp.updateSpec({
          ...who(req),
          id: param(req, 'specId'),
          fields: specFieldsFrom(req.body as Body),
          updateMask: maskFrom(req, SPEC_FIELDS),
          expectedVersion: expected,
          requiresReconsent: (req.body as Body).requiresReconsent === true,
        });
        res.setHeader('ETag', etagOf(s));
        res.json(specJson(s));
      } catch (err) {
        if (expected !== undefined && isServiceError(err) && err.code === Code.FAILED_PRECONDITION)
          throw new HttpProblem(412, 'Precondition failed', err.details, [], {}, 'precondition-failed');
        throw err;
      }
    },
    (req) => dp.deleteSpec({ ...who(req), id: param(req, 'specId') }),
  );

  r.get('/dpspecs/:specId/versions', async (req, res) => {
    const out = await dp.listSpecVersions({ accountId: req.auth!.accountId, specId: param(req, 'specId') });
    res.json(out.versions.map(versionJson));
  });
  r.get('/dpspecs/:specId/versions/:n', async (req, res) => {
    const n = param(req, 'n');
    if (!/^[1-9]\d{0,8}$/.test(n)) throw HttpProblem.notFound(`No version ${n}.`);
    res.json(versionJson(await dp.getSpecVersion({ accountId: req.auth!.accountId, specId: param(req, 'specId'), version: Number(n) })));
  });

  // ---- texts ----
  r.post('/dpspecs/:specId/texts', validateBody('DpTextCreateRequest'), async (req, res) => {
    const t = await dp.createText({ ...who(req), specId: param(req, 'specId'), fields: fieldsFrom(req.body as Body, TEXT_FIELDS) });
    res
      .status(201)
      .location(`${ctx.baseUrl}/dataprocessing/v0/dpspecs/${param(req, 'specId')}/texts/${t.id}`)
      .json(textJson(t));
  });
  r.get('/dpspecs/:specId/texts', async (req, res) => {
    const out = await dp.listTexts({ accountId: req.auth!.accountId, specId: param(req, 'specId') });
    res.json(out.texts.map(textJson));
  });

  r.get('/dpspecs/:specId/texts/:textId', async (req, res) => {
    res.json(textJson(await dp.getText({ accountId: req.auth!.accountId, specId: param(req, 'specId'), textId: param(req, 'textId') })));
  });
  writableFields(
    '/dpspecs/:specId/texts/:textId',
    ['DpTextPatchRequest', 'DpTextCreateRequest'],
    TEXT_FIELDS,
    (req, fields: pb.TextFields, updateMask) => dp.updateText({ ...who(req), specId: param(req, 'specId'), textId: param(req, 'textId'), fields, updateMask }),
    textJson,
    (req) => dp.deleteText({ ...who(req), specId: param(req, 'specId'), textId: param(req, 'textId') }),
  );

  return r;
}
