import { setImmediate as afterIo } from 'node:timers/promises';
import type { JWK } from 'jose';
import { contracts } from '@accord/proto';
import {
  FailedPreconditionError,
  GroupCommit,
  mapLimit,
  InvalidArgumentError,
  NotFoundError,
  OutcomeUnknownError,
  UnavailableError,
  type FieldError,
  type Logger,
  type Pending,
  type SigningKey,
} from '@accord/common';
import {
  buildEvents,
  EVENT_ID_PATTERN,
  identifierErrors,
  LIMITS,
  stateKey,
  supersedes,
  TOKEN_PATTERN,
  validateInputs,
  type ConsentEvent,
  type ConsentInput,
  type NormalizedInput,
} from '../domain/consent';
import { markLifecycle } from '../domain/decision';
import { accountErasureKey, validateErase } from '../domain/erasure';
import { idFloor, timeOrderedId } from '../domain/event-id';
import { consentRecordJsonLd, exportRecords, type ExportQuery } from './records';
import { receiptClaims, signReceipt, specIdOfTarget, type ReceiptSettings, type SpecDetails } from '../domain/receipt';
import { statisticsOf, versionedTargets, type Statistics } from '../domain/statistics';
import { decideBatch, type DecisionAnswer, type DecisionItem } from './decisions';
import type { Gvl } from '../domain/tcf-vendor';
import { eraseSubject } from './erasure';
import { Links } from './links';
import type { LinkEvent } from '../domain/link';
import type {
  ConsentLogPort,
  ErasureRecord,
  ErasureStore,
  EventPublisher,
  Exports,
  ExportFilter,
  HistoryQuery,
  LinkStore,
  Reads,
  SpecSource,
  WritePath,
} from './ports';

export const { searchPageDefault: SEARCH_DEFAULT_LIMIT, searchPageMax: SEARCH_MAX_LIMIT } = LIMITS;
export const TOKEN_MAX_EVENTS = 100;
export const CURRENT_STATES_MAX = 1000;
export const EXPORT_PAGE_MAX = LIMITS.exportPage;
export const { erasuresPageDefault: ERASURES_DEFAULT_LIMIT, erasuresPageMax: ERASURES_MAX_LIMIT } = LIMITS;
const DAY_MS = 86_400_000;
/** Time kept for an answer to reach the caller before its deadline. */
const ANSWER_MARGIN_MS = 1000;
/** setTimeout's limit (a call without deadline waits until its current states are applied). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Batches of one process written at once (each is three round trips, see ConsentStore). */
const MAX_BATCHES_IN_FLIGHT = 4;
/** Events one batch takes from the queue (several requests' worth). */
const MAX_BATCH_EVENTS = 2000;
/** State keys one coalesced current-state lookup reads at most, and such lookups sent at once (see `keyReads`). */
const MAX_KEY_READS = 1000;
const MAX_KEY_READS_IN_FLIGHT = 2;
/** Most states (scopes) of one subject, issuer and target read by a current search. */
const MAX_STATES = 10_000;
/** Time budget of the exact count behind an export's `X-Total-Count` (then the counters). */
export const EXPORT_COUNT_MS = 1000;

/** A search as callers ask it. */
export interface SearchParams {
  accountId: string;
  subject: string;
  issuer: string;
  target: string;
  source?: string;
  scope?: string;
  /** Only events with this gpc / in this jurisdiction (any case; an unknown code is INVALID_ARGUMENT). */
  gpc?: boolean;
  jurisdiction?: string;
  current: boolean;
  /** Without `current`: the histories of every identity linked to the subject, merged (current always resolves across links). */
  linked?: boolean;
  limit?: number;
  /** Id of the last event of the previous page (results continue with older events). */
  cursor?: string;
}

/** A create call in the group-commit queue: its events and its caller's deadline. */
interface CreateCall {
  events: ConsentEvent[];
  deadlineMs: number;
}

/** Settings of the write path. */
export interface WriteSettings {
  /** How long a new event belongs to its writer's publish before any relay may claim it (ACCORD_CONSENT_OUTBOX_LEASE_MS). */
  publishLeaseMs: number;
}

/** The consent use cases: what the gRPC handlers call. */
export class Consents {
  constructor(
    // the write path, the reads and the exports; erasure; the links, whose own service is built here
    private readonly store: WritePath & Reads & Exports & { erasure: ErasureStore; links: LinkStore },
    private readonly relay: EventPublisher,
    private readonly receipt: { keys: SigningKey[]; settings: ReceiptSettings; specs: Pick<SpecSource, 'lookup' | 'current' | 'asOf'> },
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly log?: ConsentLogPort,
    /** The installation's erasure secret (ACCORD_ERASURE_KEY); per-account keys are derived from it. */
    private readonly erasureSecret: string = '',
    private readonly settings: WriteSettings = { publishLeaseMs: 30_000 },
  ) {
    this.links = new Links(store.links);
  }

  /** Linked identities (app/links.ts): stored and listed there; current states, searches and decisions resolve across them. */
  readonly links: Links;

  /** Group commit of create calls (see `create`). */
  private readonly writes = new GroupCommit<CreateCall, ConsentEvent[]>((batch) => this.writeBatch(batch), {
    maxBatch: MAX_BATCH_EVENTS,
    weight: (c) => c.events.length,
    maxInFlight: MAX_BATCHES_IN_FLIGHT,
  });
  /**
   * Current states read by key (search `current=true` with a scope, the read of every page view):
   * the lookups of calls that arrive together go to the database as one `_id $in` per account, so
   * N concurrent reads cost one command, not N (the driver's own work per command is most of a
   * read's CPU here). A lone read waits one turn of the event loop at most; a read never joins a
   * lookup already sent, so it sees every write answered before it arrived.
   */
  private readonly keyReads = new GroupCommit<{ accountId: string; keys: string[] }, Map<string, ConsentEvent>>(
    async (batch) => {
      const byAccount = new Map<string, Set<string>>();
      for (const { item } of batch) {
        const keys = byAccount.get(item.accountId) ?? new Set<string>();
        for (const k of item.keys) keys.add(k);
        byAccount.set(item.accountId, keys);
      }
      await Promise.all(
        [...byAccount].map(async ([accountId, keys]) => {
          const mine = batch.filter((p) => p.item.accountId === accountId);
          try {
            const found = await this.store.current.byKeys(accountId, [...keys]);
            for (const p of mine) p.resolve(new Map(p.item.keys.flatMap((k) => (found.has(k) ? [[k, found.get(k)!] as const] : []))));
          } catch (err) {
            for (const p of mine) p.reject(err);
          }
        }),
      );
    },
    { maxBatch: MAX_KEY_READS, weight: (r) => r.keys.length, maxInFlight: MAX_KEY_READS_IN_FLIGHT },
  );
  /** Current-state updates and publications still running after their requests were answered. */
  private readonly background = new Set<Promise<unknown>>();

  /**
   * Validates all inputs, then queues the events for the next batch (group commit: the create
   * calls that arrive while earlier batches are being written go together, one insert, one
   * write of current-state updates, one of counters, so a busy process sends far fewer commands
   * than it gets calls). A call is answered when its batch is stored and its current states and
   * counters are applied.
   *
   * **Answered 201 ⇔ stored, published and logged** (docs/reliability.md):
   *
   * - Stored is stored: once a call's events are in, the answer is the events, whatever happens
   *   next, or a client would retry and record the consent twice. So when the current states and
   *   counters cannot be applied (an error), or not before the caller's deadline (`deadlineMs`,
   *   less a margin for the answer's way back), the events are answered anyway: the relay applies
   *   their current states when it publishes them after the lease, and a late update finishes in
   *   the background.
   * - Not answered is not stored: when the insert fails, each call of the batch is settled on
   *   its own (`settle`): stored whole (answered), or fenced off for good and its stored part
   *   withdrawn (an error; nothing of it is ever read, published or logged), or, when the
   *   database does not answer even that, an error saying the outcome is unknown (then the call
   *   is stored whole or not at all, never in part).
   */
  async create(accountId: string, appId: string, inputs: ConsentInput[], deadlineMs = Infinity): Promise<ConsentEvent[]> {
    requireOwner(accountId, appId);
    const normalized = validateInputs(inputs);
    if (normalized.some((i) => specIdOfTarget(i.target, this.receipt.settings.baseUrl))) await this.bindSpecVersions(accountId, normalized);
    return this.writes.add({ events: buildEvents(accountId, appId, normalized), deadlineMs });
  }

  /**
   * Inputs whose target names a specification get its version (`targetVersion`): the one the
   * client sent, which must exist (1 to the current version), or else the current one. The
   * current versions come from the data processing service (one call per specification,
   * remembered briefly). A specification with `consentValidityDays` gives inputs without their own
   * `expiresAt` one that many days from now. When the service cannot be reached, the events are stored without a version
   * the client did not send (a consent is never refused for that), and a warning is logged.
   */
  private async bindSpecVersions(accountId: string, inputs: NormalizedInput[]): Promise<void> {
    const specIds = new Map<number, string>();
    inputs.forEach((input, i) => {
      const specId = specIdOfTarget(input.target, this.receipt.settings.baseUrl);
      if (specId) specIds.set(i, specId);
    });
    const wanted = new Map<string, number>();
    for (const [i, specId] of specIds) wanted.set(specId, Math.max(wanted.get(specId) ?? 0, inputs[i]!.targetVersion ?? 0));
    const current = new Map<string, Pick<SpecDetails, 'version' | 'consentValidityDays'> | undefined>();
    let unavailable = false;
    await mapLimit([...wanted], 8, async ([specId, sent]) => {
      try {
        let spec = await this.receipt.specs.current(accountId, specId);
        // a version later than the remembered one may have just been made
        if (spec && sent > spec.version) spec = await this.receipt.specs.current(accountId, specId, true);
        current.set(specId, spec);
      } catch (err) {
        if (!(err instanceof UnavailableError)) throw err;
        unavailable = true;
      }
    });
    if (unavailable) this.logger.warn({ specs: wanted.size }, 'consent: data processing service unavailable; specification versions not checked');
    const errors: FieldError[] = [];
    for (const [i, specId] of specIds) {
      if (!current.has(specId)) continue;
      const input = inputs[i]!;
      const spec = current.get(specId);
      if (!spec) {
        if (input.targetVersion !== undefined) errors.push({ field: `/${i}/targetVersion`, message: `specification ${specId} is unknown, so is this version` });
      } else {
        if (input.targetVersion === undefined) input.targetVersion = spec.version;
        else if (input.targetVersion > spec.version)
          errors.push({ field: `/${i}/targetVersion`, message: `is later than the specification's current version ${spec.version}` });
        if (input.expiresAt === undefined && spec.consentValidityDays) input.expiresAt = new Date(Date.now() + spec.consentValidityDays * DAY_MS);
      }
    }
    if (errors.length)
      throw new InvalidArgumentError(errors.length === 1 ? `${errors[0]!.field}: ${errors[0]!.message}` : `${errors.length} invalid fields`, errors);
  }

  /**
   * One batch: the insert, then the current states and counters (together), answering each call
   * once they are applied or its deadline is near, whichever comes first; then, once the answers
   * are written, the events' publication.
   */
  private async writeBatch(batch: Array<Pending<CreateCall, ConsentEvent[]>>): Promise<void> {
    let stored = batch;
    try {
      await this.store.events.insert(
        batch.map((p) => p.item.events),
        new Date(Date.now() + this.settings.publishLeaseMs),
      );
    } catch (err) {
      stored = await this.settle(batch, err);
      if (!stored.length) return;
    }
    const events = stored.flatMap((p) => p.item.events);
    const applied = (async () => {
      await Promise.all([this.store.current.apply(events), this.store.statistics.count(events)]);
      return true;
    })().catch((err: unknown) => {
      this.logger.warn({ err, events: events.length }, 'consent: current states not applied; the outbox relay applies them after the lease');
      return false;
    });
    const answered = stored.map(async (p) => {
      const budget = p.item.deadlineMs - Date.now() - ANSWER_MARGIN_MS;
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([
        applied.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, Math.min(budget, MAX_TIMER_MS))))),
      ]);
      clearTimeout(timer);
      if (late)
        this.logger.warn({ events: p.item.events.length }, 'consent: answering before the current states are applied (deadline near); they follow shortly');
      p.resolve(p.item.events);
    });
    // the next batch may start once every call of this one is answered (a late one no longer waits)
    await Promise.all(answered);
    // Published after the answers are on their way, not before: the publication's own work
    // (each event's message, span and headers) was on every record's path, between the current
    // states applied and the answer written. It is never awaited either way; an event not
    // acknowledged is published by the relay after its lease.
    this.track(
      applied.then(async (ok) => {
        if (!ok) return;
        await afterIo();
        this.relay.publishStored(events);
      }),
    );
    this.log?.nudge();
  }

  /**
   * After a failed insert: which calls of the batch are stored. The insert stores a prefix, so a
   * call is stored whole once its last event is; fencing each call's last id (EventStore.fence)
   * answers that for good, also against an insert still under way. Calls stored whole go on as
   * if nothing had failed; fenced calls get the insert's error and their stored part, invisible
   * to every reader, is withdrawn (when that fails, the relay withdraws it after the lease); calls
   * the fence could not settle get OutcomeUnknownError. Resolves with the calls stored whole.
   */
  private async settle(batch: Array<Pending<CreateCall, ConsentEvent[]>>, err: unknown): Promise<Array<Pending<CreateCall, ConsentEvent[]>>> {
    const lastId = (p: Pending<CreateCall, ConsentEvent[]>) => p.item.events.at(-1)!.id;
    let fate = new Map<string, 'stored' | 'fenced'>();
    try {
      fate = await this.store.events.fence(batch.map(lastId));
    } catch (fenceErr) {
      this.logger.warn({ err: fenceErr, calls: batch.length }, 'consent: a failed insert could not be settled; its calls are answered as of unknown outcome');
    }
    const stored = batch.filter((p) => fate.get(lastId(p)) === 'stored');
    const fenced = batch.filter((p) => fate.get(lastId(p)) === 'fenced');
    const withdraw = fenced.flatMap((p) => p.item.events.slice(0, -1).map((e) => e.id));
    if (withdraw.length)
      await this.store.events
        .withdraw(withdraw)
        .catch((e: unknown) =>
          this.logger.warn(
            { err: e, events: withdraw.length },
            'consent: events of a failed insert not withdrawn; they stay unread and the relay withdraws them',
          ),
        );
    for (const p of fenced) p.reject(err);
    for (const p of batch)
      if (!fate.has(lastId(p)))
        p.reject(
          new OutcomeUnknownError(
            'The database stopped answering while these consent events were being stored: they are stored all together or not at all. Search for them before sending them again.',
          ),
        );
    if (stored.length < batch.length) this.logger.warn({ err, calls: batch.length, stored: stored.length, fenced: fenced.length }, 'consent: insert failed');
    return stored;
  }

  private track(p: Promise<unknown>): void {
    this.background.add(p);
    void p.finally(() => this.background.delete(p));
  }

  /** Waits for batches and current-state updates still running (on shutdown). */
  async drain(): Promise<void> {
    await this.writes.drained();
    while (this.background.size) await Promise.allSettled([...this.background]);
  }

  async get(accountId: string, id: string): Promise<ConsentEvent> {
    requireAccount(accountId);
    const ev = EVENT_ID_PATTERN.test(id) ? await this.store.events.findById(accountId, id) : undefined;
    if (!ev) throw new NotFoundError('Consent event not found');
    return ev;
  }

  /** Every event of the account with this token (case-insensitive), newest first. */
  async byToken(accountId: string, token: string): Promise<ConsentEvent[]> {
    requireAccount(accountId);
    const t = token.trim().toUpperCase();
    if (!TOKEN_PATTERN.test(t)) throw InvalidArgumentError.field('token', 'must be 6 letters or digits');
    return this.store.events.findByToken(accountId, t, TOKEN_MAX_EVENTS);
  }

  async search(p: SearchParams): Promise<{ events: ConsentEvent[]; next?: string }> {
    requireAccount(p.accountId);
    const errors = [
      ...(['subject', 'issuer', 'target'] as const).filter((f) => !p[f]).map((f) => ({ field: f, message: 'is required' })),
      ...identifierErrors({ subject: p.subject, issuer: p.issuer, target: p.target, source: p.source, scope: p.scope }, ''),
    ];
    if (errors.length) throw new InvalidArgumentError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    const limit = p.limit || SEARCH_DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_MAX_LIMIT)
      throw InvalidArgumentError.field('limit', `must be an integer from 1 to ${SEARCH_MAX_LIMIT}`);
    if (p.cursor && !EVENT_ID_PATTERN.test(p.cursor)) throw InvalidArgumentError.field('cursor', 'is not a cursor of this search');
    let jurisdiction: string | undefined;
    if (p.jurisdiction) {
      jurisdiction = contracts.regimes.normalizeJurisdiction(p.jurisdiction);
      if (!jurisdiction) throw InvalidArgumentError.field('jurisdiction', contracts.regimes.JURISDICTION_MESSAGE);
    }
    let events: ConsentEvent[];
    // linked identities: the subject's group (one lookup that finds nothing for a subject without links)
    const names = p.current || p.linked ? (await this.links.group(p.accountId, p.issuer, p.subject)).names : [p.subject];
    if (p.current) {
      // the current states hold the newest event of each state: with a scope, one lookup by key;
      // without, the states of this subject, issuer and target (of each linked identity: the newest per scope)
      const states =
        p.scope !== undefined && p.scope !== ''
          ? [
              ...(
                await this.keyReads.add({
                  accountId: p.accountId,
                  keys: names.map((n) => stateKey(p.accountId, n, p.issuer, p.target, p.scope!)),
                })
              ).values(),
            ]
          : (await Promise.all(names.map((n) => this.store.current.ofSubject(p.accountId, n, p.issuer, [p.target], MAX_STATES)))).flat();
      events = newestAcrossIdentities(states)
        .filter((e) => !p.source || e.source === p.source)
        .filter((e) => (p.gpc === undefined || e.gpc === p.gpc) && (jurisdiction === undefined || e.jurisdiction === jurisdiction))
        .filter((e) => !p.cursor || e.id < p.cursor)
        .sort((x, y) => (x.id < y.id ? 1 : -1))
        .slice(0, limit + 1);
    } else {
      const q: HistoryQuery = {
        accountId: p.accountId,
        subject: p.subject,
        issuer: p.issuer,
        target: p.target,
        limit: limit + 1,
      };
      if (p.source) q.source = p.source;
      if (p.scope) q.scope = p.scope;
      if (p.gpc !== undefined) q.gpc = p.gpc;
      if (jurisdiction !== undefined) q.jurisdiction = jurisdiction;
      if (p.cursor) q.before = p.cursor;
      // linked: each identity's page, merged newest first (ids are time-ordered, so the cursor pages the merge)
      events =
        names.length === 1
          ? await this.store.events.history(q)
          : (await Promise.all(names.map((subject) => this.store.events.history({ ...q, subject }))))
              .flat()
              .sort((x, y) => (x.id < y.id ? 1 : -1))
              .slice(0, limit + 1);
    }
    const page: { events: ConsentEvent[]; next?: string } = { events };
    if (events.length > limit) {
      page.events = events.slice(0, limit);
      page.next = page.events[limit - 1]!.id;
    }
    return p.current ? { ...page, events: await this.markLifecycle(p.accountId, page.events) } : page;
  }

  /** One page of the account's events, oldest first, for an export; `next` continues it. */
  async exportPage(
    p: ExportQuery & {
      /**
       * Also the account's link events (docs/consent.md, Export: `links=true`), within the same id
       * bounds, `appId` (the linking application) and `subject` (links naming it as identity or
       * subject); not with `target` (a link names none). The page is the first `limit` of both by
       * id, so one cursor resumes both.
       */
      links?: boolean;
    },
  ): Promise<{ events: ConsentEvent[]; links?: LinkEvent[]; next?: string; total?: { total: number; exact: boolean } }> {
    requireAccount(p.accountId);
    const limit = p.limit || EXPORT_PAGE_MAX;
    const errors: FieldError[] = [];
    if (!Number.isInteger(limit) || limit < 1 || limit > EXPORT_PAGE_MAX)
      errors.push({ field: 'limit', message: `must be an integer from 1 to ${EXPORT_PAGE_MAX}` });
    if (p.cursor && !EVENT_ID_PATTERN.test(p.cursor))
      errors.push({ field: 'cursor', message: 'is not a cursor of an export (the id of the last event received)' });
    if (p.since && p.until && p.since >= p.until) errors.push({ field: 'until', message: 'must be later than since' });
    errors.push(...identifierErrors({ appId: p.appId, target: p.target, subject: p.subject }, ''));
    if (p.links && p.target) errors.push({ field: 'links', message: 'a link names no target: export links without target' });
    if (errors.length) throw new InvalidArgumentError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    // time bounds as id bounds: ids start with their creation millisecond
    const q: ExportFilter = { accountId: p.accountId };
    if (p.cursor) q.after = p.cursor;
    if (p.since) q.from = idFloor(p.since.getTime());
    if (p.until) q.before = idFloor(p.until.getTime());
    if (p.appId) q.appId = p.appId;
    if (p.target) q.target = p.target;
    if (p.subject) q.subject = p.subject;
    const [events, total, links] = await Promise.all([
      this.store.events.exportPage({ ...q, limit }),
      p.withTotal ? this.exportTotal(q) : undefined,
      p.links ? this.store.links.exportPage({ ...q, limit }) : undefined,
    ]);
    if (links) return { ...mergedExportPage(events, links, limit), ...(total !== undefined ? { total } : {}) };
    const page: { events: ConsentEvent[]; next?: string; total?: { total: number; exact: boolean } } = { events };
    if (events.length === limit) page.next = events[events.length - 1]!.id;
    if (total !== undefined) page.total = total;
    return page;
  }

  /**
   * How many events an export holds, for progress (`X-Total-Count`). With only application and
   * target filters: the statistics counters (no scan of the events). Otherwise one count with
   * the export's own filter, given EXPORT_COUNT_MS at most; when it takes longer (millions of
   * events and a narrow filter outside the index), the counters again, an upper bound that
   * ignores since, until, subject and cursor (`exact: false`).
   */
  private async exportTotal(q: ExportFilter, countMs = EXPORT_COUNT_MS): Promise<{ total: number; exact: boolean }> {
    const counters = () =>
      this.store.statistics.eventTotal({ accountId: q.accountId, ...(q.appId ? { appId: q.appId } : {}), ...(q.target ? { target: q.target } : {}) });
    if (q.subject === undefined && q.after === undefined && q.from === undefined && q.before === undefined) return { total: await counters(), exact: true };
    // the database stops the count after countMs; the timer bounds the wait on servers that ignore that
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), countMs + 100)));
    const count = this.store.events.count(q, countMs);
    try {
      const n = await Promise.race([count, late]);
      if (n !== undefined) return { total: n, exact: true };
    } finally {
      clearTimeout(timer);
    }
    count.catch(() => undefined);
    return { total: await counters(), exact: false };
  }

  async currentStates(accountId: string, subject: string, issuer: string, targets: string[]): Promise<ConsentEvent[]> {
    requireAccount(accountId);
    const errors = [
      ...(['subject', 'issuer'] as const).filter((f) => !(f === 'subject' ? subject : issuer)).map((f) => ({ field: f, message: 'is required' })),
      ...identifierErrors({ subject, issuer }, ''),
      ...identifierErrors(Object.fromEntries(targets.map((t, i) => [String(i), t])), 'targets/'),
    ];
    if (errors.length) throw new InvalidArgumentError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    if (targets.length > CURRENT_STATES_MAX) throw InvalidArgumentError.field('targets', `at most ${CURRENT_STATES_MAX}`);
    const { names } = await this.links.group(accountId, issuer, subject);
    const states = newestAcrossIdentities(
      names.length === 1
        ? await this.store.current.ofSubject(accountId, subject, issuer, targets, CURRENT_STATES_MAX)
        : (await Promise.all(names.map((n) => this.store.current.ofSubject(accountId, n, issuer, targets, CURRENT_STATES_MAX)))).flat(),
    );
    return this.markLifecycle(
      accountId,
      states.sort((x, y) => (x.id < y.id ? 1 : -1)),
    );
  }

  /** The operator's TCF Global Vendor List (service.ts sets it from ACCORD_TCF_GVL), for vendor decisions. */
  tcfGvl: () => Gvl | undefined = () => undefined;

  /** "May I process this?" for a batch of items, at now or a past `at` (app/decisions.ts). */
  async decide(accountId: string, items: DecisionItem[], at?: Date): Promise<{ at: Date; decisions: DecisionAnswer[] }> {
    requireAccount(accountId);
    return decideBatch(this.store, this.receipt.specs, this.receipt.settings.baseUrl, accountId, items, at, Date.now(), this.tcfGvl, (asked, before) =>
      this.links.groups(accountId, asked, before),
    );
  }

  async statistics(accountId: string, appId: string): Promise<Statistics> {
    requireOwner(accountId, appId);
    const counts = await this.store.statistics.read(accountId, appId, new Date());
    const versioned = versionedTargets(counts);
    return statisticsOf(appId, counts, versioned.length ? await this.reconsentSinceOf(accountId, versioned) : undefined);
  }

  /** Current states as read: `expired` after their expiresAt, `renewalRequired` when their specification changed materially since the version consented to. */
  private async markLifecycle(accountId: string, events: ConsentEvent[]): Promise<ConsentEvent[]> {
    const versioned = events.filter((e) => e.targetVersion !== undefined).map((e) => e.target);
    const since = versioned.length ? await this.reconsentSinceOf(accountId, versioned) : () => undefined;
    return markLifecycle(events, Date.now(), since);
  }

  /**
   * The `reconsentSince` (latest material version) of the specifications these targets name,
   * from the same briefly remembered lookups as new consents use (ACCORD_CONSENT_SPEC_CACHE_MS),
   * so a specification change costs no write per consent and shows within that time. When the
   * data processing service cannot answer, no state is flagged (a read never fails for it) and a
   * warning is logged.
   */
  private async reconsentSinceOf(accountId: string, targets: string[]): Promise<(target: string) => number | undefined> {
    const specOf = new Map<string, string>();
    for (const t of new Set(targets)) {
      const specId = specIdOfTarget(t, this.receipt.settings.baseUrl);
      if (specId) specOf.set(t, specId);
    }
    const since = new Map<string, number>();
    let unavailable = false;
    await mapLimit([...new Set(specOf.values())], 8, async (specId) => {
      try {
        const spec = await this.receipt.specs.current(accountId, specId);
        if (spec?.reconsentSince) since.set(specId, spec.reconsentSince);
      } catch (err) {
        if (!(err instanceof UnavailableError)) throw err;
        unavailable = true;
      }
    });
    if (unavailable) this.logger.warn({ specs: specOf.size }, 'consent: data processing service unavailable; renewalRequired not computed');
    return (target) => {
      const specId = specOf.get(target);
      return specId === undefined ? undefined : since.get(specId);
    };
  }

  /**
   * A signed Kantara-style receipt (JWS). When the target names a specification, the receipt
   * describes the version the event names (`targetVersion`, read from the kept versions), so
   * later edits of the specification never change it; events without a version (older ones)
   * are described by the current specification.
   */
  async receiptFor(accountId: string, id: string): Promise<string> {
    const ev = await this.get(accountId, id);
    // a receipt names its subject (piiPrincipalId, sub): an erased subject's is not issued again
    if (ev.erasedAt)
      throw new FailedPreconditionError(
        `The subject of this consent event was erased on ${ev.erasedAt.toISOString()}; its receipt is no longer issued. The event (GET /consents/{id}) and its log proof remain.`,
      );
    const specId = specIdOfTarget(ev.target, this.receipt.settings.baseUrl);
    const spec = specId ? await this.receipt.specs.lookup(accountId, specId, ev.targetVersion) : undefined;
    const key = this.receipt.keys[0]!;
    const anchor = await this.log?.anchor(accountId, ev.id);
    const claims = receiptClaims(ev, spec, this.receipt.settings, publicJwkJson(key), anchor);
    return signReceipt(claims, key);
  }

  /** The event's ISO/IEC TS 27560 record (or receipt) in W3C DPV JSON-LD (app/records.ts). */
  async record(accountId: string, id: string, receipt: boolean): Promise<string> {
    return consentRecordJsonLd(this, this.receipt.specs, this.receipt.settings.baseUrl, accountId, id, receipt);
  }

  /** An export's events as DPV JSON-LD records, a page at a time (app/records.ts exportRecords). */
  exportRecords(f: ExportQuery): AsyncGenerator<{ records: string[]; total?: { total: number; exact: boolean } }> {
    return exportRecords(this, this.receipt.specs, this.receipt.settings.baseUrl, f);
  }

  /**
   * Erases a subject (docs/consent.md, Erasure): its personal data in every event of the account
   * (of one issuer, when given) becomes keyed hashes, the events stay as evidence; recorded with
   * who asked and how many events and states changed, under the subject's hash only. Erasing
   * again changes nothing and answers 0. The identities linked to the subject when it is erased
   * (docs/consent.md, Linked identities) are erased with it — their events of the link's issuer —
   * and the link events name the erased ones by their hashes; the counts include them.
   */
  async erase(accountId: string, appId: string, clientId: string, input: { subject?: string; issuer?: string }): Promise<ErasureRecord> {
    requireOwner(accountId, appId);
    const { subject, issuer } = validateErase(input);
    if (!this.erasureSecret) throw new FailedPreconditionError('Subject erasure is not configured (ACCORD_ERASURE_KEY).');
    const at = new Date();
    const key = accountErasureKey(this.erasureSecret, accountId);
    // linked identities: read before anything is rewritten (the links name the subject in clear until then)
    const linked = await this.links.linkedForErasure(accountId, subject, issuer);
    const out = await eraseSubject(this.store.erasure, accountId, subject, issuer, key, at);
    for (const l of linked) {
      const more = await eraseSubject(this.store.erasure, accountId, l.identity, l.issuer, key, at);
      out.events += more.events;
      out.states += more.states;
    }
    await this.links.erase(accountId, [subject, ...linked.map((l) => l.identity)], issuer, key, at);
    const rec: ErasureRecord = {
      id: timeOrderedId(at),
      accountId,
      subjectHash: out.subjectHash,
      appId,
      clientId,
      erasedAt: at,
      events: out.events,
      states: out.states,
    };
    if (issuer !== undefined) rec.issuer = issuer;
    await this.store.erasure.record(rec);
    return rec;
  }

  /** The account's erasure records, newest first; `next` continues the list. */
  async erasures(accountId: string, limit?: number, cursor?: string): Promise<{ erasures: ErasureRecord[]; next?: string }> {
    requireAccount(accountId);
    const n = limit || ERASURES_DEFAULT_LIMIT;
    if (!Number.isInteger(n) || n < 1 || n > ERASURES_MAX_LIMIT)
      throw InvalidArgumentError.field('limit', `must be an integer from 1 to ${ERASURES_MAX_LIMIT}`);
    if (cursor && !EVENT_ID_PATTERN.test(cursor)) throw InvalidArgumentError.field('cursor', 'is not a cursor of this list');
    const rows = await this.store.erasure.list(accountId, n + 1, cursor || undefined);
    if (rows.length > n) return { erasures: rows.slice(0, n), next: rows[n - 1]!.id };
    return { erasures: rows };
  }

  receiptKeys(): SigningKey['publicJwk'][] {
    return this.receipt.keys.map((k) => k.publicJwk);
  }
}

/**
 * Current states across linked identities: for each (issuer, target, scope) the newest event of
 * any identity decides (`supersedes`); its `subject` names the identity whose event it is. The
 * states of one identity are one each already, so without links this changes nothing.
 */
function newestAcrossIdentities(states: ConsentEvent[]): ConsentEvent[] {
  const newest = new Map<string, ConsentEvent>();
  for (const e of states) {
    const k = JSON.stringify([e.issuer, e.target, e.scope]);
    if (supersedes(e, newest.get(k))) newest.set(k, e);
  }
  return newest.size === states.length ? states : [...newest.values()];
}

function publicJwkJson(key: SigningKey): JWK {
  return Object.fromEntries(Object.entries(key.publicJwk).filter(([, v]) => typeof v === 'string' && v !== '')) as JWK;
}

export function requireAccount(accountId: string): void {
  if (!accountId) throw InvalidArgumentError.field('account_id', 'is required');
}

function requireOwner(accountId: string, appId: string): void {
  requireAccount(accountId);
  if (!appId) throw InvalidArgumentError.field('app_id', 'is required');
}

/**
 * The first `limit` of an export page's events and links together, by id (both read `limit` after
 * the same cursor, so nothing unread sorts before the last one kept), and the cursor after them.
 */
export function mergedExportPage(events: ConsentEvent[], links: LinkEvent[], limit: number): { events: ConsentEvent[]; links: LinkEvent[]; next?: string } {
  const ids = [...events.map((e) => e.id), ...links.map((l) => l.id)].sort();
  if (ids.length < limit) return { events, links };
  const last = ids[limit - 1]!;
  return { events: events.filter((e) => e.id <= last), links: links.filter((l) => l.id <= last), next: last };
}
