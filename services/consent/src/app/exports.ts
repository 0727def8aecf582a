import { FailedPreconditionError, InvalidArgumentError, mapLimit } from '@accord/common';
import { LIMITS, type ConsentEvent } from '../domain/consent';
import type { LinkEvent } from '../domain/link';
import type { Consents } from './consents';

/** What a subject's export may be filtered by (ExportConsents' filters but the cursor). */
export interface SubjectExportFilter {
  accountId: string;
  subject: string;
  appId?: string;
  target?: string;
  since?: Date;
  until?: Date;
}

/**
 * One subject's export as one document (REST's `Accept: application/json` export, docs/consent.md
 * *Export*): its events oldest first, and its current states. At most LIMITS.exportJsonMax
 * events: an exact count over it refuses at once, else the pages are read up to one event past it
 * (FailedPrecondition; NDJSON streams any number).
 */
export async function subjectExport(
  consents: Pick<Consents, 'exportPage' | 'search'> & { links?: Pick<Consents['links'], 'naming'> },
  f: SubjectExportFilter,
): Promise<{ events: ConsentEvent[]; current: ConsentEvent[]; links: LinkEvent[] }> {
  if (!f.subject) throw InvalidArgumentError.field('subject', 'is required');
  const max = LIMITS.exportJsonMax;
  const base = { ...f, limit: LIMITS.exportPage };
  let page = await consents.exportPage({ ...base, withTotal: true });
  const events = [...page.events];
  const tooMany = () => events.length > max || (!!page.total?.exact && page.total.total > max);
  while (page.next && !tooMany()) {
    page = await consents.exportPage({ ...base, cursor: page.next });
    events.push(...page.events);
  }
  if (tooMany()) {
    throw new FailedPreconditionError(`This subject has more than ${max} events (with these filters); one document holds at most ${max}.`);
  }
  const [current, links] = await Promise.all([
    currentStatesNamed(consents, f.accountId, f.subject, events),
    consents.links ? consents.links.naming(f.accountId, f.subject) : [],
  ]);
  return { events, current, links };
}

/**
 * A subject's current states for the (issuer, target, scope) these events name, exactly as
 * `search` with `current` answers them (which event is current, `expired`, `renewalRequired`,
 * linked identities): one search per (issuer, target), page by page, newest first overall.
 */
export async function currentStatesNamed(
  consents: Pick<Consents, 'search'>,
  accountId: string,
  subject: string,
  events: ReadonlyArray<Pick<ConsentEvent, 'issuer' | 'target' | 'scope'>>,
): Promise<ConsentEvent[]> {
  const key = (e: Pick<ConsentEvent, 'issuer' | 'target' | 'scope'>, withScope = true) =>
    JSON.stringify(withScope ? [e.issuer, e.target, e.scope] : [e.issuer, e.target]);
  const named = new Set(events.map((e) => key(e)));
  const pairs = [...new Map(events.map((e) => [key(e, false), e])).values()];
  const states = await mapLimit(pairs, 8, async ({ issuer, target }) => {
    const out: ConsentEvent[] = [];
    let cursor: string | undefined;
    do {
      const page = await consents.search({ accountId, subject, issuer, target, current: true, limit: LIMITS.searchPageMax, ...(cursor ? { cursor } : {}) });
      out.push(...page.events);
      cursor = page.next;
    } while (cursor);
    return out;
  });
  return states
    .flat()
    .filter((e) => named.has(key(e)))
    .sort((a, b) => (a.id < b.id ? 1 : -1));
}
