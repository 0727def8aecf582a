import { ConflictError, FailedPreconditionError, InvalidArgumentError, NotFoundError, sleep } from '@accord/common';
import { contracts } from '@accord/proto';
import type { GroupRecord, SpecRecord, SpecVersionRecord, TextRecord } from '../domain/model';
import type { ConsentStates, RegistryStore } from './ports';
import {
  addTexts,
  findText,
  isNoop,
  oldestKeptVersion,
  parseTextId,
  reconsentSinceAfter,
  removeText,
  replaceText,
  specAsOf,
  stateOf,
  type SpecChange,
} from '../domain/specs';
import { parseSpecTarget, SPEC_ID_PATTERN, specTargetUrl } from '../domain/target';
import {
  jurisdictionParam,
  languageParam,
  textTypeParam,
  updateGroup,
  updateSpec,
  updateText,
  validateGroup,
  validateSpec,
  validateText,
  type GroupInput,
  type SpecInput,
  type TextInput,
} from '../domain/validate';
import { buildConsentRequest, buildDashboard, renderPolicySection, type ConsentRequestView, type DashboardItem, type ViewOptions } from '../domain/views';

export interface RegistryOptions {
  /** Public base URL of the deployment; specification targets are built from it. */
  baseUrl: string;
  /** Location of a specification created without one. */
  defaultLocation: string;
  newId: () => string;
  now?: () => Date;
  /** Attempts of an optimistic update before giving up with a conflict. */
  maxAttempts?: number;
}

/** Where the subject of a view is and whether its browser sends a GPC signal (both optional). */
export interface ViewSignals {
  jurisdiction?: string;
  gpc?: boolean;
}

export interface Page {
  limit?: number;
  cursor?: string;
}

export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 200;

/** A specification version: a previous one from the history, or the current state. */
export interface VersionView {
  version: number;
  createdAt: Date;
  appId: string;
  spec: SpecRecord;
  current: boolean;
}

function pageOf(page: Page | undefined): { limit: number; afterId: string | null } {
  const limit = page?.limit || PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX) throw InvalidArgumentError.field('limit', `must be from 1 to ${PAGE_MAX}`);
  const cursor = page?.cursor ?? '';
  if (cursor === '') return { limit, afterId: null };
  // the id of the last item received (contracts' LIST_CURSOR_PATTERN, which the document states)
  if (!contracts.dataprocessing.LIST_CURSOR_PATTERN.test(cursor)) throw InvalidArgumentError.field('cursor', 'is not a cursor returned by this list');
  return { limit, afterId: cursor };
}

function cursorOf(items: { id: string }[], limit: number): string {
  return items.length > limit ? items[limit - 1]!.id : '';
}

function recordOf(spec: SpecRecord): SpecVersionRecord {
  return {
    accountId: spec.accountId,
    specId: spec.id,
    version: spec.version,
    reconsentSince: spec.reconsentSince,
    createdAt: spec.updatedAt,
    appId: spec.appId,
    groupId: spec.groupId,
    specCreatedAt: spec.createdAt,
    state: stateOf(spec),
    texts: spec.texts,
    nextTextId: spec.nextTextId,
    deletedAt: spec.deletedAt,
  };
}

/**
 * The data processing registry: groups, versioned specifications and their texts, and the
 * views built from them.
 *
 * Concurrency without transactions: every state of a specification is a version record, and
 * a change from version N is the insert of record N+1, which a unique index on (spec, version)
 * lets only one writer win; losers re-read and retry. So the history is one linear chain: no
 * version is lost and no two changes interleave. The specification document (used for lists)
 * is then rolled forward to the new record; a reader that finds a newer record than the
 * document rolls it forward too, so a crash between the two steps heals itself. Deletion is a
 * version too (it sets deletedAt).
 */
export class Registry {
  private readonly now: () => Date;
  private readonly maxAttempts: number;

  constructor(
    private readonly store: RegistryStore,
    private readonly consent: ConsentStates,
    private readonly opts: RegistryOptions,
  ) {
    this.now = opts.now ?? (() => new Date());
    this.maxAttempts = opts.maxAttempts ?? 50;
  }

  targetOf(specId: string): string {
    return specTargetUrl(this.opts.baseUrl, specId);
  }

  // ---- renewal signal (consent service) ----

  /** Material changes not yet acknowledged by the consent service's renewal fan-out (any account). */
  async pendingRenewals(limit: number): Promise<Array<{ accountId: string; specId: string; version: number; target: string }>> {
    const found = await this.store.pendingRenewals(Math.min(Math.max(limit, 1), 1000));
    return found.map((p) => ({ ...p, target: this.targetOf(p.specId) }));
  }

  async ackRenewal(specId: string, version: number): Promise<void> {
    if (!specId || !(version > 0)) throw new InvalidArgumentError('specId and version are required');
    await this.store.ackRenewal(specId, version);
  }

  // ---- groups ----

  async createGroup(accountId: string, appId: string, input: GroupInput): Promise<GroupRecord> {
    const state = validateGroup(input);
    const now = this.now();
    const group: GroupRecord = { id: this.opts.newId(), accountId, appId, ...state, createdAt: now, updatedAt: now, deletedAt: null };
    await this.store.insertGroup(group);
    return group;
  }

  async getGroup(accountId: string, id: string): Promise<GroupRecord> {
    const group = SPEC_ID_PATTERN.test(id) ? await this.store.findGroup(accountId, id) : null;
    if (!group) throw new NotFoundError(`group ${id} not found`);
    return group;
  }

  async listGroups(accountId: string, page?: Page): Promise<{ groups: GroupRecord[]; nextCursor: string }> {
    const { limit, afterId } = pageOf(page);
    const groups = await this.store.listGroups(accountId, afterId, limit + 1);
    return { groups: groups.slice(0, limit), nextCursor: cursorOf(groups, limit) };
  }

  async updateGroup(accountId: string, id: string, input: GroupInput, mask: readonly string[]): Promise<GroupRecord> {
    const current = await this.getGroup(accountId, id);
    const state = updateGroup(current, input, mask);
    const updated = await this.store.updateGroup(accountId, id, state, this.now());
    if (!updated) throw new NotFoundError(`group ${id} not found`);
    return updated;
  }

  /** Soft delete; the group's specifications are archived (readable, no longer listed). */
  async deleteGroup(accountId: string, appId: string, id: string): Promise<void> {
    if (!SPEC_ID_PATTERN.test(id)) throw new NotFoundError(`group ${id} not found`);
    const deleted = await this.store.markGroupDeleted(accountId, id, this.now());
    // Also when the group was already deleted: finishes a cascade that an earlier call may not have completed.
    for (;;) {
      const live = await this.store.listSpecs(accountId, id, null, PAGE_MAX);
      for (const spec of live)
        await this.deleteSpec(accountId, appId, spec.id).catch((err: unknown) => {
          if (!(err instanceof NotFoundError)) throw err;
        });
      if (live.length < PAGE_MAX) break;
    }
    if (!deleted) throw new NotFoundError(`group ${id} not found`);
  }

  // ---- specifications ----

  async createSpec(accountId: string, appId: string, groupId: string, input: SpecInput, texts: TextInput[] = []): Promise<SpecRecord> {
    await this.getGroup(accountId, groupId);
    const state = validateSpec(input, { location: this.opts.defaultLocation });
    const textStates = texts.map((t, i) => validateText(t, `/texts/${i}`));
    const now = this.now();
    const withTexts = addTexts([], 1, textStates, now);
    const spec: SpecRecord = {
      id: this.opts.newId(),
      accountId,
      groupId,
      appId,
      ...state,
      texts: withTexts.texts,
      nextTextId: withTexts.nextTextId,
      version: 1,
      reconsentSince: 1,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
    await this.store.insertVersion(recordOf(spec));
    await this.store.insertSpec(spec);
    // The group may have been deleted meanwhile; its cascade could have missed this spec.
    if (!(await this.store.findGroup(accountId, groupId))) {
      await this.deleteSpec(accountId, appId, spec.id).catch(() => undefined);
      throw new NotFoundError(`group ${groupId} not found`);
    }
    return spec;
  }

  /** A specification, archived (deleted) ones included; the newest version wins over a lagging document. */
  async getSpec(accountId: string, id: string): Promise<SpecRecord> {
    const doc = SPEC_ID_PATTERN.test(id) ? await this.store.findSpec(accountId, id) : null;
    if (!doc) throw new NotFoundError(`specification ${id} not found`);
    // Usually one key lookup that finds nothing; more only after a crash or a race between writers.
    let latest: SpecVersionRecord | null = null;
    for (let v = doc.version + 1; ; v++) {
      const next = await this.store.findVersion(accountId, id, v);
      if (!next) break;
      latest = next;
    }
    if (!latest) return doc;
    await this.store.rollForward(latest);
    return specAsOf(latest);
  }

  async listSpecs(accountId: string, groupId: string, page?: Page): Promise<{ specs: SpecRecord[]; nextCursor: string }> {
    await this.getGroup(accountId, groupId);
    const { limit, afterId } = pageOf(page);
    const specs = await this.store.listSpecs(accountId, groupId, afterId, limit + 1);
    return { specs: specs.slice(0, limit), nextCursor: cursorOf(specs, limit) };
  }

  /** `requiresReconsent`: the editor marks the change material (see isMaterial), even a change of nothing else. */
  async updateSpec(
    accountId: string,
    appId: string,
    id: string,
    input: SpecInput,
    mask: readonly string[],
    expectedVersion?: number,
    requiresReconsent = false,
  ): Promise<SpecRecord> {
    return this.mutateSpec(accountId, appId, id, expectedVersion, (spec) => ({
      change: {
        state: updateSpec(stateOf(spec), input, mask, { location: this.opts.defaultLocation }),
        texts: spec.texts,
        nextTextId: spec.nextTextId,
        requiresReconsent,
      },
      result: (s) => s,
    }));
  }

  /**
   * Archival, recorded as a new version: the specification stays readable (with its versions)
   * but leaves its group's lists and views and cannot change any more.
   */
  async deleteSpec(accountId: string, appId: string, id: string): Promise<void> {
    await this.mutateSpec(accountId, appId, id, undefined, (spec) => ({
      change: { state: stateOf(spec), texts: spec.texts, nextTextId: spec.nextTextId, deletedAt: this.now() },
      result: () => undefined,
    }));
  }

  /** Previous versions, newest first (at most 100). */
  async listVersions(accountId: string, specId: string): Promise<VersionView[]> {
    const spec = await this.getSpec(accountId, specId);
    const versions = await this.store.listVersions(accountId, specId, oldestKeptVersion(spec.version), spec.version);
    return versions.map((v) => ({ version: v.version, createdAt: v.createdAt, appId: v.appId, spec: specAsOf(v), current: false }));
  }

  /**
   * The specification as it was at `at`: the version current then, the newest made at or before
   * it. NotFound when the specification did not exist yet or that version is no longer kept (the
   * newest 100 previous ones are).
   */
  async specAt(accountId: string, specId: string, at: Date): Promise<SpecRecord> {
    const spec = await this.getSpec(accountId, specId);
    if (spec.updatedAt <= at) return spec;
    const notFound = new NotFoundError(`specification ${specId} as of ${at.toISOString()} not found`);
    if (spec.createdAt > at) throw notFound;
    const then = (await this.store.listVersions(accountId, specId, oldestKeptVersion(spec.version), spec.version)).find((v) => v.createdAt <= at);
    if (!then) throw notFound;
    return specAsOf(then);
  }

  /** One version: the current one or a kept previous one. */
  async getVersion(accountId: string, specId: string, version: number): Promise<VersionView> {
    const spec = await this.getSpec(accountId, specId);
    if (version === spec.version) return { version, createdAt: spec.updatedAt, appId: spec.appId, spec, current: true };
    const notFound = new NotFoundError(`version ${version} of specification ${specId} not found`);
    if (!Number.isInteger(version) || version < oldestKeptVersion(spec.version) || version > spec.version) throw notFound;
    const v = await this.store.findVersion(accountId, specId, version);
    if (!v) throw notFound;
    return { version: v.version, createdAt: v.createdAt, appId: v.appId, spec: specAsOf(v), current: false };
  }

  // ---- texts ----

  async createText(accountId: string, appId: string, specId: string, input: TextInput): Promise<TextRecord> {
    const text = validateText(input);
    return this.mutateSpec(accountId, appId, specId, undefined, (spec) => {
      const added = addTexts(spec.texts, spec.nextTextId, [text], this.now());
      return {
        change: { state: stateOf(spec), texts: added.texts, nextTextId: added.nextTextId },
        result: () => added.created[0]!,
      };
    });
  }

  async listTexts(accountId: string, specId: string): Promise<TextRecord[]> {
    return (await this.getSpec(accountId, specId)).texts;
  }

  async getText(accountId: string, specId: string, textId: string): Promise<TextRecord> {
    const id = parseTextId(textId);
    return findText((await this.getSpec(accountId, specId)).texts, id);
  }

  async updateText(accountId: string, appId: string, specId: string, textId: string, input: TextInput, mask: readonly string[]): Promise<TextRecord> {
    const id = parseTextId(textId);
    return this.mutateSpec(accountId, appId, specId, undefined, (spec) => {
      const next = updateText(findText(spec.texts, id), input, mask);
      const replaced = replaceText(spec.texts, id, next, this.now());
      return { change: { state: stateOf(spec), texts: replaced.texts, nextTextId: spec.nextTextId }, result: () => replaced.updated };
    });
  }

  async deleteText(accountId: string, appId: string, specId: string, textId: string): Promise<void> {
    const id = parseTextId(textId);
    await this.mutateSpec(accountId, appId, specId, undefined, (spec) => ({
      change: { state: stateOf(spec), texts: removeText(spec.texts, id), nextTextId: spec.nextTextId },
      result: () => undefined,
    }));
  }

  /**
   * One change of a live specification: insert its next version record (the atomic step; a
   * lost race re-reads and retries), then roll the document forward and drop versions beyond
   * the newest 100 previous ones. A change that changes nothing makes no version.
   */
  private async mutateSpec<R>(
    accountId: string,
    appId: string,
    id: string,
    expectedVersion: number | undefined,
    fn: (spec: SpecRecord) => { change: SpecChange & { deletedAt?: Date }; result: (updated: SpecRecord) => R },
  ): Promise<R> {
    for (let attempt = 1; ; attempt++) {
      const spec = await this.getSpec(accountId, id);
      if (spec.deletedAt) throw new NotFoundError(`specification ${id} was deleted; it can be read but not changed`);
      if (expectedVersion !== undefined && spec.version !== expectedVersion)
        throw new FailedPreconditionError(`specification ${id} is at version ${spec.version}, not ${expectedVersion}`);
      const { change, result } = fn(spec);
      if (!change.deletedAt && !change.requiresReconsent && isNoop(spec, change)) return result(spec);
      const next: SpecVersionRecord = {
        ...recordOf(spec),
        version: spec.version + 1,
        reconsentSince: reconsentSinceAfter(spec, change, spec.version + 1),
        createdAt: this.now(),
        appId,
        state: change.state,
        texts: change.texts,
        nextTextId: change.nextTextId,
        deletedAt: change.deletedAt ?? null,
      };
      if (await this.store.insertVersion(next)) {
        await this.store.rollForward(next);
        const dropped = oldestKeptVersion(next.version) - 1;
        if (dropped >= 1) await this.store.dropVersion(accountId, id, dropped);
        return result(specAsOf(next));
      }
      if (attempt >= this.maxAttempts) throw new ConflictError(`specification ${id} is being changed concurrently; retry`);
      await sleep(Math.random() * Math.min(100, 5 * attempt));
    }
  }

  // ---- consent targets ----

  /** The specification with its group (deleted groups included), for consent receipts. */
  /** A specification for a consent (receipts, the version a consent names): current, or as of `version`. */
  async specForConsent(
    accountId: string,
    specId: string,
    version?: number,
    at?: Date,
  ): Promise<{ spec: SpecRecord; group: GroupRecord | null; target: string }> {
    const spec =
      version !== undefined
        ? (await this.getVersion(accountId, specId, version)).spec
        : at !== undefined
          ? await this.specAt(accountId, specId, at)
          : await this.getSpec(accountId, specId);
    const group = await this.store.findGroup(accountId, spec.groupId, { includeDeleted: true });
    return { spec, group, target: this.targetOf(spec.id) };
  }

  async resolveTarget(accountId: string, target: string): Promise<{ specId: string; resolved: Awaited<ReturnType<Registry['specForConsent']>> } | null> {
    const specId = parseSpecTarget(this.opts.baseUrl, target);
    if (!specId) return null;
    return { specId, resolved: await this.specForConsent(accountId, specId) };
  }

  // ---- views ----

  private async groupWithSpecs(accountId: string, groupId: string): Promise<{ group: GroupRecord; specs: SpecRecord[] }> {
    const group = await this.getGroup(accountId, groupId);
    const specs: SpecRecord[] = [];
    for (let afterId: string | null = null; ;) {
      const page = await this.store.listSpecs(accountId, groupId, afterId, PAGE_MAX);
      specs.push(...page);
      if (page.length < PAGE_MAX) break;
      afterId = page[page.length - 1]!.id;
    }
    return { group, specs };
  }

  private viewOptions(language: string, type: string, signals: ViewSignals = {}): ViewOptions {
    return {
      baseUrl: this.opts.baseUrl,
      language: languageParam(language),
      type: textTypeParam(type),
      jurisdiction: jurisdictionParam(signals.jurisdiction ?? ''),
      gpc: signals.gpc === true,
    };
  }

  async policy(accountId: string, groupId: string, language: string, type: string): Promise<{ html: string; language: string }> {
    const opts = this.viewOptions(language, type);
    const { group, specs } = await this.groupWithSpecs(accountId, groupId);
    return { html: renderPolicySection(group, specs, opts), language: opts.language };
  }

  async consentRequest(accountId: string, groupId: string, language: string, type: string, signals: ViewSignals = {}): Promise<ConsentRequestView> {
    const opts = this.viewOptions(language, type, signals);
    const { group, specs } = await this.groupWithSpecs(accountId, groupId);
    return buildConsentRequest(group, specs, opts);
  }

  async dashboard(
    accountId: string,
    groupId: string,
    subject: string,
    issuer: string,
    language: string,
    type: string,
    signals: ViewSignals = {},
  ): Promise<{ request: ConsentRequestView; items: DashboardItem[] }> {
    const fields = [
      ...(subject.trim() ? [] : [{ field: 'subject', message: 'is required' }]),
      ...(issuer.trim() ? [] : [{ field: 'issuer', message: 'is required' }]),
    ];
    if (fields.length) throw new InvalidArgumentError(fields.map((f) => `${f.field}: ${f.message}`).join('; '), fields);
    const request = await this.consentRequest(accountId, groupId, language, type, signals);
    const targets = request.items.map((i) => i.target);
    const events = targets.length ? await this.consent.currentStates({ accountId, subject, issuer, targets }) : [];
    return { request, items: buildDashboard(request, events) };
  }
}
