import { isServiceError } from '@accord/common';
import { consentEventJson, contracts, type consentv1 } from '@accord/proto';
import type { GatewayContext } from '../context';
import { specJson } from './dataprocessing';
import { mapped } from './jsonld';

/**
 * What an event's W3C DPV JSON-LD record (ISO/IEC TS 27560) needs besides the event: the
 * specification shown and the state before it. The mapping is @accord/proto's contracts/dpv.ts.
 */
const { dpv } = contracts;

/** The state before an event of the same subject, issuer, target and scope (contracts' priorStateOf over the consent service's search). */
export function priorState(ctx: GatewayContext, accountId: string, ev: consentv1.ConsentEvent): Promise<contracts.dpv.PriorState> {
  const { subject, issuer, target, scope } = ev;
  return dpv.priorStateOf({ id: ev.id, erased: !!ev.erasedAt }, async (cursor) => {
    const out = await ctx.clients.consent.searchConsents({
      accountId,
      subject,
      issuer,
      target,
      scope,
      current: false,
      page: { limit: contracts.consent.LIMITS.searchPageMax, cursor: cursor ?? '' },
    });
    return { events: out.events, next: out.nextCursor || undefined };
  });
}

/**
 * The specification an event's target names, as of the version shown (the current one when the
 * event names none); undefined when the target is no specification of this account or it cannot
 * be read (the record then comes from the event alone, as the receipt does).
 */
export async function specOfEvent(ctx: GatewayContext, accountId: string, ev: consentv1.ConsentEvent): Promise<contracts.dpv.DpvSpec | undefined> {
  const specId = contracts.dataprocessing.specIdOfTarget(ev.target, ctx.baseUrl);
  if (!specId) return undefined;
  try {
    if (ev.targetVersion !== undefined) {
      const v = await ctx.clients.dataprocessing.getSpecVersion({ accountId, specId, version: ev.targetVersion });
      return v.spec ? specJson(v.spec) : undefined;
    }
    return specJson(await ctx.clients.dataprocessing.getSpec({ accountId, id: specId }));
  } catch (err) {
    if (isServiceError(err)) {
      ctx.logger.warn({ err, specId }, 'DPV record without its specification');
      return undefined;
    }
    throw err;
  }
}

/** One event's record in DPV JSON-LD, with its specification and the state before it. */
export async function eventRecord(ctx: GatewayContext, accountId: string, ev: consentv1.ConsentEvent): Promise<Record<string, unknown>> {
  const [prior, spec] = await Promise.all([priorState(ctx, accountId, ev), specOfEvent(ctx, accountId, ev)]);
  return mapped('consent event', () => dpv.consentRecord(consentEventJson(ev), { baseUrl: ctx.baseUrl, prior, ...(spec ? { spec } : {}) }));
}

/** One event's receipt in DPV JSON-LD, the signed receipt inside. */
export async function eventReceipt(ctx: GatewayContext, accountId: string, ev: consentv1.ConsentEvent, jws: string): Promise<Record<string, unknown>> {
  const [prior, spec] = await Promise.all([priorState(ctx, accountId, ev), specOfEvent(ctx, accountId, ev)]);
  return mapped('consent event', () => dpv.consentReceipt(consentEventJson(ev), jws, { baseUrl: ctx.baseUrl, prior, ...(spec ? { spec } : {}) }));
}

/** Keys of (subject, issuer, target, scope) an export remembers the last action of; past it, their past is unknown. */
const EXPORT_KEYS_MAX = 100_000;
/** Specification versions an export keeps read. */
const EXPORT_SPECS_MAX = 1000;

/**
 * The records of an export's events, page by page: the state before each event from the events
 * the stream has carried (known when the stream starts at the account's first event and holds
 * every application's: no since, appId or cursor), each specification read once. A specification
 * DPV cannot say (a CUSTOM legal basis, a location outside the lists) gives the record from the
 * event alone: a stream cannot answer 406 after its first line.
 */
export class ExportRecords {
  private readonly last = new Map<string, boolean | null>();
  private readonly specs = new Map<string, Promise<contracts.dpv.DpvSpec | undefined>>();

  constructor(
    private readonly ctx: GatewayContext,
    private readonly accountId: string,
    private complete: boolean,
  ) {}

  async lines(events: consentv1.ConsentEvent[]): Promise<string> {
    const specs = await Promise.all(events.map((e) => this.spec(e)));
    return events
      .map((e, i) => {
        const json = consentEventJson(e);
        const key = JSON.stringify([e.subject, e.issuer, e.target, e.scope]);
        const before = this.last.get(key);
        const prior: contracts.dpv.PriorState =
          before !== undefined ? (before === true ? 'given' : 'not-given') : this.complete && !e.erasedAt ? 'not-given' : 'unknown';
        if (this.last.has(key) || this.last.size < EXPORT_KEYS_MAX) this.last.set(key, e.action ?? null);
        else if (this.complete) this.complete = false; // forgotten keys: their past is unknown from here on
        const options = { baseUrl: this.ctx.baseUrl, prior };
        let doc: Record<string, unknown>;
        try {
          doc = dpv.consentRecord(json, specs[i] ? { ...options, spec: specs[i] } : options);
        } catch (err) {
          if (!(err instanceof dpv.DpvMappingError)) throw err;
          doc = dpv.consentRecord(json, options);
        }
        return `${JSON.stringify(doc)}\n`;
      })
      .join('');
  }

  private spec(e: consentv1.ConsentEvent): Promise<contracts.dpv.DpvSpec | undefined> {
    const specId = contracts.dataprocessing.specIdOfTarget(e.target, this.ctx.baseUrl);
    if (!specId) return Promise.resolve(undefined);
    const key = `${specId}@${e.targetVersion ?? ''}`;
    let p = this.specs.get(key);
    if (!p) {
      p = specOfEvent(this.ctx, this.accountId, e);
      if (this.specs.size < EXPORT_SPECS_MAX) this.specs.set(key, p);
    }
    return p;
  }
}
