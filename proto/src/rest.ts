// Hand-written beside the generated code: the REST JSON form of a consent event, shared by the
// gateway (REST answers, NDJSON export, webhook data) and the admin CLI's export, so both write
// the same lines. Its type is the contract's (contracts/consent.ts `ConsentEvent`, the document's
// schema of the same name): a field built here and not documented there, or documented and not
// built, fails the type check.
import { LINK_LINE_TYPE, type ConsentEventJson } from './contracts/consent';
import type { SubjectLinkJson } from './contracts/links';
import type { ConsentEvent, GppFacts, TcfFacts } from './gen/accord/consent/v1/consent';
import type { SubjectLink } from './gen/accord/consent/v1/links';

/** A TC string's facts as JSON (every field, as the consent service stored them). */
function tcfJson(t: TcfFacts) {
  return {
    version: t.version,
    policyVersion: t.policyVersion,
    cmpId: t.cmpId,
    cmpVersion: t.cmpVersion,
    purposes: [...t.purposes],
    legitimateInterests: [...t.legitimateInterests],
    specialFeatures: [...t.specialFeatures],
  };
}

/** A GPP string's facts as JSON (absent opt-outs stay absent). */
function gppJson(g: GppFacts) {
  return {
    sections: [...g.sections],
    ...(g.saleOptOut !== undefined ? { saleOptOut: g.saleOptOut } : {}),
    ...(g.sharingOptOut !== undefined ? { sharingOptOut: g.sharingOptOut } : {}),
    ...(g.targetedAdvertisingOptOut !== undefined ? { targetedAdvertisingOptOut: g.targetedAdvertisingOptOut } : {}),
  };
}

/** The REST JSON of a consent event (also the `data` of the NATS/webhook `consent` event). */
export function consentEventJson(ev: ConsentEvent): ConsentEventJson {
  const json = {
    id: ev.id,
    subject: ev.subject,
    issuer: ev.issuer,
    target: ev.target,
    ...(ev.source !== undefined ? { source: ev.source } : {}),
    scope: ev.scope,
    ...(ev.delegate !== undefined ? { delegate: ev.delegate } : {}),
    action: ev.action ?? null,
    token: ev.token,
    // The consent service stamps every event; ts-proto types every Timestamp field optional.
    createdAt: ev.createdAt?.toISOString() as string,
    appId: ev.appId,
    ...(ev.targetVersion !== undefined ? { targetVersion: ev.targetVersion } : {}),
    ...(ev.expiresAt !== undefined ? { expiresAt: ev.expiresAt.toISOString() } : {}),
    ...(ev.expired ? { expired: true } : {}),
    ...(ev.renewalRequired ? { renewalRequired: true } : {}),
    ...(ev.erasedAt ? { erasedAt: ev.erasedAt.toISOString() } : {}),
    ...(ev.gpc !== undefined ? { gpc: ev.gpc } : {}),
    ...(ev.tcString !== undefined ? { tcString: ev.tcString } : {}),
    ...(ev.tcf ? { tcf: tcfJson(ev.tcf) } : {}),
    ...(ev.addtlConsent !== undefined ? { addtlConsent: ev.addtlConsent } : {}),
    ...(ev.gppString !== undefined ? { gppString: ev.gppString } : {}),
    ...(ev.gpp ? { gpp: gppJson(ev.gpp) } : {}),
    ...(ev.jurisdiction !== undefined ? { jurisdiction: ev.jurisdiction } : {}),
    ...(ev.importedAt ? { importedAt: ev.importedAt.toISOString() } : {}),
  };
  return json satisfies SameKeys<typeof json, ConsentEventJson>;
}

/** The REST JSON of a link event (linked identities). */
export function subjectLinkJson(l: SubjectLink): SubjectLinkJson {
  const json = {
    id: l.id,
    appId: l.appId,
    issuer: l.issuer,
    identity: l.identity,
    subject: l.subject ?? null,
    createdAt: l.createdAt?.toISOString() as string,
    ...(l.importedAt ? { importedAt: l.importedAt.toISOString() } : {}),
    ...(l.erasedAt ? { erasedAt: l.erasedAt.toISOString() } : {}),
  };
  return json satisfies SameKeys<typeof json, SubjectLinkJson>;
}

/**
 * The NDJSON lines of one export page: its events, and with `links=true` its link events, by id;
 * a link line is the link as answered with `type: "subject.linked"` first (consent event lines
 * never carry `type`). What GET /consent/v0/consents/export and the admin CLI's export write.
 */
export function exportLines(events: ConsentEvent[], links: SubjectLink[] = []): string {
  const all: Array<{ id: string; line: object }> = events.map((e) => ({ id: e.id, line: consentEventJson(e) }));
  for (const l of links) all.push({ id: l.id, line: { type: LINK_LINE_TYPE, ...subjectLinkJson(l) } });
  if (links.length) all.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return all.map((x) => `${JSON.stringify(x.line)}\n`).join('');
}

/**
 * `T` when it has exactly the keys of `U`, else `never` (so `satisfies` fails): the return type
 * alone would not catch a field added through a spread, nor an optional field left out.
 */
type SameKeys<T, U> = [Exclude<keyof T, keyof U>, Exclude<keyof U, keyof T>] extends [never, never] ? T : never;
