import { dataprocessingv1 as pb } from '@accord/proto';
import type { GroupRecord, SpecRecord, TextRecord } from '../domain/model';
import type { VersionView } from '../app/registry';
import type { SpecInput } from '../domain/validate';
import type { ConsentItem, ConsentRequestView, DashboardItem } from '../domain/views';

/** Domain records to proto messages, and a specification's fields from theirs (nothing else). */

/**
 * A specification's fields as sent: proto maps arrive as Maps (ts-proto `useMapType`, so that no
 * key is lost in decoding, `__proto__` included), the domain reads a record; Object.fromEntries
 * defines every key as its own property, so the regimes' checks see each key sent.
 */
export function specFieldsFromPb(f: pb.SpecFields | undefined): SpecInput {
  if (!f) return {};
  const { regimes, consentMode, ...rest } = f;
  return {
    ...rest,
    ...(regimes ? { regimes: { byJurisdiction: Object.fromEntries(regimes.byJurisdiction) } } : {}),
    ...(consentMode ? { consentMode: consentMode.types } : {}),
  };
}

export function groupToPb(g: GroupRecord): pb.Group {
  return { id: g.id, name: g.name, description: g.description, purpose: g.purpose, appId: g.appId, createdAt: g.createdAt, updatedAt: g.updatedAt };
}

export function textToPb(t: TextRecord): pb.Text {
  return { id: String(t.id), value: t.value, language: t.language, type: t.type, createdAt: t.createdAt, updatedAt: t.updatedAt };
}

/** What a person is told about a processing, as a specification and a consent request item both carry it (absent values as proto3 has them). */
function termsToPb(t: Pick<ConsentItem, 'data' | 'purpose' | 'action' | 'sensitive' | 'location' | 'duration' | 'legalBasis' | 'externalHref'>) {
  return {
    data: t.data,
    purpose: t.purpose,
    action: t.action,
    sensitive: t.sensitive,
    location: t.location,
    duration: t.duration ?? undefined,
    legalBasis: t.legalBasis ?? '',
    externalHref: t.externalHref ?? '',
  };
}

/** The fields a specification has in both of its messages (Spec and SpecForConsent). */
function specFieldsToPb(s: SpecRecord, target: string) {
  return {
    id: s.id,
    groupId: s.groupId,
    ...termsToPb(s),
    consentTarget: s.consentTarget,
    consentValidityDays: s.consentValidityDays ?? undefined,
    texts: s.texts.map(textToPb),
    version: s.version,
    reconsentSince: s.reconsentSince,
    regimes: new Map(Object.entries(s.regimes)),
    consentMode: s.consentMode ?? [],
    target,
    archived: s.deletedAt !== null,
  };
}

export function specToPb(s: SpecRecord, target: string): pb.Spec {
  return {
    ...specFieldsToPb(s, target),
    appId: s.appId,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    deletedAt: s.deletedAt ?? undefined,
  };
}

export function versionToPb(v: VersionView, target: string): pb.SpecVersion {
  return { specId: v.spec.id, version: v.version, createdAt: v.createdAt, appId: v.appId, spec: specToPb(v.spec, target), current: v.current };
}

export function specForConsentToPb(spec: SpecRecord, group: GroupRecord | null, target: string): pb.SpecForConsent {
  return { ...specFieldsToPb(spec, target), groupName: group?.name ?? '', groupPurpose: group?.purpose ?? '' };
}

export function itemToPb(i: ConsentItem): pb.ConsentRequestItem {
  return {
    specId: i.specId,
    target: i.target,
    text: i.text ? textToPb(i.text) : undefined,
    ...termsToPb(i),
    version: i.version,
    regime: i.regime,
    preselected: i.preselected ?? undefined,
    gpcApplied: i.gpcApplied,
    regimes: new Map(Object.entries(i.regimes)),
    consentMode: i.consentMode,
  };
}

/** What a consent request and a dashboard both open with: the group, its title and caption, and the language, jurisdiction and GPC they were built for. */
function requestHeadToPb(r: ConsentRequestView) {
  return { groupId: r.groupId, title: r.title, caption: r.caption, language: r.language, jurisdiction: r.jurisdiction ?? '', gpc: r.gpc };
}

export function consentRequestToPb(r: ConsentRequestView): pb.ConsentRequest {
  return { ...requestHeadToPb(r), items: r.items.map(itemToPb) };
}

/** A subject's dashboard: the consent request's head, whose states they are, and each item with its state. */
export function dashboardToPb(request: ConsentRequestView, items: DashboardItem[], subject: string, issuer: string): pb.Dashboard {
  return { ...requestHeadToPb(request), subject, issuer, items: items.map(dashboardItemToPb) };
}

function dashboardItemToPb(d: DashboardItem): pb.DashboardItem {
  return {
    item: itemToPb(d.item),
    state: d.state,
    scopes: d.scopes.map((s) => ({
      scope: s.scope,
      state: s.state,
      eventId: s.eventId,
      createdAt: s.createdAt ?? undefined,
      targetVersion: s.targetVersion,
      renewalRequired: s.renewalRequired,
      gpc: s.gpc,
    })),
  };
}
