import { InvalidArgumentError } from '@accord/common';
import { ERASED_PREFIX, erasedImportKey, pseudonym } from '../domain/erasure';
import { EVENT_ID_PATTERN, LIMITS } from '../domain/consent';
import { importedEventId } from '../domain/event-id';
import {
  buildLink,
  checkNoChain,
  currentLinks,
  identitiesOf,
  linkLeafHash,
  MAX_LINKED_IDENTITIES,
  validateLink,
  type ImportedLink,
  type LinkEvent,
  type LinkInput,
} from '../domain/link';
import { holdsReplacement, IDENTIFIER_MESSAGE } from '../domain/consent';
import type { LinkStore } from './ports';

/** Links read to resolve one name: its own, and those naming it as subject (a subject has at most MAX_LINKED_IDENTITIES current ones). */
const RESOLVE_READ = 1000;
/**
 * How long this process takes an account without links to have none (reads skip the link lookups
 * meanwhile). An account's first link made by another replica shows here within this time; once an
 * account has links, every read looks them up.
 */
export const LINKLESS_RECHECK_MS = 2000;
export const LINKS_PAGE_DEFAULT = 100;
export const LINKS_PAGE_MAX = 1000;

/** What a name resolves to: the subject of its star and every identity of it, the subject first. */
export interface LinkGroup {
  subject: string;
  /** The subject, then its linked identities (sorted); just `[name]` for a name without links. */
  names: string[];
}

/** The key of a name's group in `Links.groups`. */
export const groupKey = (issuer: string, name: string): string => `${issuer}\u0000${name}`;

/** Where a stored link goes next: the event stream (`subject.linked`), which marks it published (events/link-publisher.ts). */
export interface LinkSink {
  stored(link: LinkEvent): void;
}

/**
 * Linked identities (domain/link.ts, docs/consent.md *Linked identities*): storing link events
 * under the no-chain rule, listing them, and resolving a name to its group for current states,
 * searches and decisions.
 */
export class Links {
  constructor(
    private readonly store: LinkStore,
    /** Where stored links go (service.ts sets the event stream's publisher: `subject.linked` webhooks). */
    public sink: LinkSink = { stored: () => undefined },
    private readonly clock: () => number = Date.now,
    /** How long a new link belongs to its writer's publication before the relay may claim it (ACCORD_CONSENT_OUTBOX_LEASE_MS). */
    public publishLeaseMs = 30_000,
  ) {}

  /** Accounts known to have links (for good), and accounts without links until when (ms). */
  private readonly linked = new Set<string>();
  private readonly linkless = new Map<string, number>();

  /**
   * Whether reads of the account must consult links: yes once it has any; an account without
   * links is looked at again after LINKLESS_RECHECK_MS, so the hot path of an account that never
   * links (current states, decisions) costs no link lookup at all.
   */
  private async consult(accountId: string): Promise<boolean> {
    if (this.linked.has(accountId)) return true;
    const until = this.linkless.get(accountId);
    if (until !== undefined && until > this.clock()) return false;
    const has = await this.store.any(accountId);
    if (has) {
      this.linked.add(accountId);
      this.linkless.delete(accountId);
    } else {
      if (this.linkless.size > 100_000) this.linkless.clear();
      this.linkless.set(accountId, this.clock() + LINKLESS_RECHECK_MS);
    }
    return has;
  }

  /** Stores a link event (application tokens only: the gateway refuses consent sessions). */
  async link(accountId: string, appId: string, input: { issuer?: unknown; identity?: unknown; subject?: unknown }): Promise<LinkEvent> {
    if (!accountId) throw InvalidArgumentError.field('account_id', 'is required');
    if (!appId) throw InvalidArgumentError.field('app_id', 'is required');
    const link = validateLink(input);
    await this.checkRules(accountId, link);
    const ev = buildLink(accountId, appId, link);
    // its own outbox record: the relay publishes it after the lease if the sink does not first
    await this.store.insert(ev, new Date(this.clock() + this.publishLeaseMs), linkLeafHash(ev));
    this.linked.add(accountId);
    this.linkless.delete(accountId);
    this.sink.stored(ev);
    return ev;
  }

  /** The no-chain rule against the links as they stand now (LinkConflictError naming the field). */
  private async checkRules(accountId: string, link: LinkInput): Promise<void> {
    if (link.subject === null) return;
    const names = [link.identity, link.subject];
    const around = await this.store.naming(accountId, link.issuer, names, undefined, RESOLVE_READ);
    const current = await this.currentAround(accountId, link.issuer, names, around, undefined);
    const subjectOf = (s: string) => [...current.values()].filter((l) => l.subject === s).map((l) => l.identity);
    checkNoChain(link, subjectOf(link.identity), current.get(link.subject)?.subject ?? null, subjectOf(link.subject));
  }

  /**
   * Which of these import keys are stored already: an import counts such a link line a duplicate
   * before checking its rules (posting a file again must not refuse what the first post stored).
   */
  async importedKeys(keys: string[]): Promise<Set<string>> {
    return keys.length ? this.store.importedKeys(keys) : new Set();
  }

  /**
   * Stores one imported link (docs/consent.md, Import: a line of the export with links): its
   * original `createdAt` (the id begins with it, so it sorts among the links of its time and an
   * old link never overrides a newer one), `importedAt`, once per import key. The no-chain rule
   * holds against the links as they stand when the line is imported (the file's earlier lines
   * included). Waits for its log leaf (the leaf holds `importedAt`); never published: imported
   * history reaches no webhook. Resolves false for a key stored already.
   */
  async importLink(accountId: string, appId: string, link: LinkInput, times: { createdAt: Date; importedAt: Date }, importKey: string): Promise<boolean> {
    await this.checkRules(accountId, link);
    const ev: ImportedLink = {
      id: importedEventId(times.createdAt),
      accountId,
      appId,
      issuer: link.issuer,
      identity: link.identity,
      subject: link.subject,
      createdAt: times.createdAt,
      importedAt: times.importedAt,
      importKey,
    };
    const stored = await this.store.insertImported(ev, linkLeafHash(ev));
    this.linked.add(accountId);
    this.linkless.delete(accountId);
    return stored;
  }

  /**
   * The current link of each identity among `around` and among the identities that `around` links
   * to `names` (their newer links may have moved them elsewhere: read once more, only when any).
   */
  private async currentAround(
    accountId: string,
    issuer: string,
    names: string[],
    around: LinkEvent[],
    before: string | undefined,
  ): Promise<Map<string, LinkEvent>> {
    const candidates = [...new Set(around.filter((l) => l.subject !== null && names.includes(l.subject)).map((l) => l.identity))].filter(
      (i) => !names.includes(i),
    );
    const more = candidates.length ? await this.store.ofIdentities(accountId, issuer, candidates, before, RESOLVE_READ * 10) : [];
    return currentLinks([...around, ...more]);
  }

  /**
   * The group `name` belongs to (of one issuer), as the links stood before `before` (an id floor;
   * now when undefined). A name without links costs one indexed lookup that finds nothing.
   */
  async group(accountId: string, issuer: string, name: string, before?: string): Promise<LinkGroup> {
    return (await this.groups(accountId, [{ issuer, name }], before)).get(groupKey(issuer, name))!;
  }

  /**
   * The groups of many names at once (decisions): per issuer one lookup of the links naming any of
   * them, and only when some have links, one of their subjects' links and one of the candidate
   * identities' own links. By `groupKey(issuer, name)`.
   */
  async groups(accountId: string, asked: Array<{ issuer: string; name: string }>, before?: string): Promise<Map<string, LinkGroup>> {
    const out = new Map<string, LinkGroup>();
    const byIssuer = new Map<string, Set<string>>();
    for (const { issuer, name } of asked) {
      out.set(groupKey(issuer, name), { subject: name, names: [name] });
      byIssuer.set(issuer, (byIssuer.get(issuer) ?? new Set()).add(name));
    }
    if (!(await this.consult(accountId))) return out;
    for (const [issuer, set] of byIssuer) {
      const names = [...set];
      const read = RESOLVE_READ * Math.max(1, Math.min(names.length, 10));
      const around = await this.store.naming(accountId, issuer, names, before, read);
      if (!around.length) continue;
      // each name's subject: its own newest link's, else itself
      const own = currentLinks(around.filter((l) => set.has(l.identity)));
      const subjectOf = (n: string) => own.get(n)?.subject ?? n;
      const subjects = [...new Set(names.map(subjectOf))];
      const elsewhere = subjects.filter((s) => !set.has(s));
      const links = elsewhere.length ? [...around, ...(await this.store.naming(accountId, issuer, elsewhere, before, read))] : around;
      const current = await this.currentAround(accountId, issuer, subjects, links, before);
      for (const n of names) {
        const subject = subjectOf(n);
        const identities = identitiesOf(subject, current.values())
          .filter((i) => i !== subject)
          .slice(0, MAX_LINKED_IDENTITIES);
        out.set(groupKey(issuer, n), { subject, names: [subject, ...identities] });
      }
    }
    return out;
  }

  /**
   * Lists links: an identity's (`identity`) or those naming a subject (`subject`), of one issuer.
   * By default only the current ones (an identity's newest link; the subject's identities whose
   * newest link names it); `history` lists every link event, newest first, paged by `cursor`.
   */
  async list(
    accountId: string,
    q: { issuer?: string; identity?: string; subject?: string; history?: boolean; limit?: number; cursor?: string },
  ): Promise<{ links: LinkEvent[]; next?: string }> {
    if (!accountId) throw InvalidArgumentError.field('account_id', 'is required');
    const errors: Array<{ field: string; message: string }> = [];
    for (const f of ['issuer', 'identity', 'subject'] as const) {
      const v = q[f];
      if (v !== undefined && v !== '' && (holdsReplacement(v) || v.length > LIMITS.subject)) errors.push({ field: f, message: IDENTIFIER_MESSAGE });
    }
    if (!q.issuer) errors.push({ field: 'issuer', message: 'is required' });
    if (!q.identity === !q.subject) errors.push({ field: q.identity ? 'subject' : 'identity', message: 'exactly one of identity and subject is required' });
    const limit = q.limit || LINKS_PAGE_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > LINKS_PAGE_MAX)
      errors.push({ field: 'limit', message: `must be an integer from 1 to ${LINKS_PAGE_MAX}` });
    if (q.cursor && !EVENT_ID_PATTERN.test(q.cursor)) errors.push({ field: 'cursor', message: 'is not a cursor of this list' });
    if (q.cursor && !q.history) errors.push({ field: 'cursor', message: 'pages only a history (history=true)' });
    if (errors.length) throw new InvalidArgumentError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    const issuer = q.issuer!;
    if (q.history) {
      const rows = await this.store.list({
        accountId,
        issuer,
        ...(q.identity ? { identity: q.identity } : { subject: q.subject! }),
        ...(q.cursor ? { before: q.cursor } : {}),
        limit: limit + 1,
      });
      return rows.length > limit ? { links: rows.slice(0, limit), next: rows[limit - 1]!.id } : { links: rows };
    }
    if (q.identity) {
      const [newest] = await this.store.list({ accountId, issuer, identity: q.identity, limit: 1 });
      return { links: newest ? [newest] : [] };
    }
    const subject = q.subject!;
    const around = await this.store.list({ accountId, issuer, subject, limit: RESOLVE_READ });
    const current = await this.currentAround(accountId, issuer, [subject], around, undefined);
    const links = [...current.values()].filter((l) => l.subject === subject).sort((x, y) => (x.id < y.id ? 1 : -1));
    return { links: links.slice(0, limit) };
  }

  /**
   * Erasure across links: the identities linked to `subject` when it is erased (of `issuer`, or of
   * every issuer its links name), each with the issuer of its link. Their events are erased with
   * the subject's (app/consents.ts `erase`).
   */
  async linkedForErasure(accountId: string, subject: string, issuer: string | undefined): Promise<Array<{ identity: string; issuer: string }>> {
    const naming = await this.store.inClear(accountId, subject, issuer, RESOLVE_READ);
    const issuers = [...new Set(naming.filter((l) => l.subject === subject).map((l) => l.issuer))];
    const out: Array<{ identity: string; issuer: string }> = [];
    for (const i of issuers) {
      const g = await this.group(accountId, i, subject);
      if (g.subject === subject) for (const identity of g.names.slice(1)) out.push({ identity, issuer: i });
    }
    return out;
  }

  /**
   * Erases names in the link events (of `issuer`, when given): each erased name, as identity or
   * subject, becomes its keyed hash (domain/erasure.ts `pseudonym`), so the links keep joining the
   * erased pseudonyms and other names stay as they were. An imported link's import key (it may
   * hold the line's externalId) becomes its keyed hash, as an imported event's does, so posting the
   * file again still finds the line stored. Resolves with how many events changed.
   */
  async erase(accountId: string, names: string[], issuer: string | undefined, key: Buffer, at: Date): Promise<number> {
    const erased = new Set(names);
    const hashed = (v: string | null) => (v !== null && erased.has(v) && !v.startsWith(ERASED_PREFIX) ? pseudonym(key, v) : v);
    let changed = 0;
    for (const name of names) {
      for (let round = 0; round < 1000; round++) {
        const links = await this.store.inClear(accountId, name, issuer, RESOLVE_READ);
        if (!links.length) break;
        const n = await this.store.rewrite(
          links.map((l) => ({
            id: l.id,
            identity: l.identity,
            set: {
              identity: hashed(l.identity)!,
              subject: hashed(l.subject),
              erasedAt: at,
              ...(l.importKey ? { importKey: erasedImportKey(key, accountId, l.importKey) } : {}),
            },
          })),
        );
        changed += n;
        if (!n) break;
      }
    }
    return changed;
  }

  /** Every link event naming `name` (as identity or subject, any issuer), newest first: a subject's export. */
  async naming(accountId: string, name: string): Promise<LinkEvent[]> {
    return (await this.store.inClear(accountId, name, undefined, RESOLVE_READ)).map(({ importKey: _key, ...link }) => link);
  }
}
