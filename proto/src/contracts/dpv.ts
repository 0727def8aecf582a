// ISO/IEC TS 27560 consent records in the W3C Data Privacy Vocabulary (DPV 2.x), as JSON-LD: one
// more wire form of Accord's records beside the REST JSON (rest.ts) and the bus event (bus.ts),
// built from the REST JSON (the consent service writes the records, the gateway a specification's
// view). The terms follow the DPV community group's guide "Consent Records and Receipts as per
// ISO/IEC TS 27560:2023 using DPV" (https://w3id.org/dpv/guides/consent-27560); each DPV term
// used here exists in DPV 2.2 (dpv.ttl, legal/eu/gdpr, loc). docs/consent.md, "ISO/IEC TS 27560 in DPV", has the table.
import type { ConsentEventJson } from './consent';
import type { Action, LegalBasis } from './dataprocessing';
import { normalizeJurisdiction } from './regimes';

/** The media type of the view, and the `format` query value that asks for it. */
export const JSONLD_MEDIA_TYPE = 'application/ld+json';
export const JSONLD_FORMAT = 'jsonld';

/** The vocabularies a record uses; every term of every record expands into one of them. */
export const DPV_CONTEXT = {
  dpv: 'https://w3id.org/dpv#',
  'eu-gdpr': 'https://w3id.org/dpv/legal/eu/gdpr#',
  pd: 'https://w3id.org/dpv/pd#',
  loc: 'https://w3id.org/dpv/loc#',
  dct: 'http://purl.org/dc/terms/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
} as const;

/** The schema a record and a receipt conform to (the guide's namespaces section). */
export const DPV_27560_RECORD = 'https://w3id.org/dpv/schema/dpv-27560#record';
export const DPV_27560_RECEIPT = 'https://w3id.org/dpv/schema/dpv-27560';

/** A specification's legal basis as DPV's GDPR legal bases (Art. 6(1) a–f). CUSTOM has none. */
export const LEGAL_BASIS_TERMS: Readonly<Record<Exclude<LegalBasis, 'CUSTOM'>, string>> = {
  CONSENT: 'eu-gdpr:A6-1-a',
  CONTRACT: 'eu-gdpr:A6-1-b',
  LEGAL_OBLIGATION: 'eu-gdpr:A6-1-c',
  VITAL_INTEREST: 'eu-gdpr:A6-1-d',
  PUBLIC_INTEREST: 'eu-gdpr:A6-1-e-public-interest',
  OFFICIAL_AUTHORITY: 'eu-gdpr:A6-1-e-official-authority',
  LEGITIMATE_INTEREST: 'eu-gdpr:A6-1-f',
  LEGITIMATE_INTEREST_3RDPARTY: 'eu-gdpr:A6-1-f',
};

/** A specification's action as a DPV processing operation. */
export const ACTION_TERMS: Readonly<Record<Action, string>> = {
  collect: 'dpv:Collect',
  store: 'dpv:Store',
  use: 'dpv:Use',
  analyze: 'dpv:Analyse',
  profile: 'dpv:Profiling',
  share: 'dpv:Share',
  transfer: 'dpv:Transfer',
  delete: 'dpv:Erase',
};

/** The consent states an event can be (DPV's ConsentStatus taxonomy). */
export const CONSENT_STATES = {
  given: 'dpv:ConsentGiven',
  withdrawn: 'dpv:ConsentWithdrawn',
  refused: 'dpv:ConsentRefused',
  /** `false` when Accord cannot tell whether consent was given before (refused or withdrawn). */
  notGiven: 'dpv:ConsentStatusInvalidForProcessing',
  /** `null`: the subject took no action on the request. */
  deferred: 'dpv:ConsentRequestDeferred',
} as const;

/** Something a JSON-LD view cannot say in DPV; REST answers 406 naming the fields (gRPC FAILED_PRECONDITION). */
export class DpvMappingError extends Error {
  constructor(readonly fields: Array<{ field: string; message: string }>) {
    super(`No DPV mapping for ${fields.map((f) => f.field).join(', ')}`);
    this.name = 'DpvMappingError';
  }
}

/** The fields of a specification the view reads (as in the REST JSON of a specification). */
export interface DpvSpec {
  id: string;
  data: string;
  purpose: string;
  action: string;
  sensitive: boolean;
  location: string;
  duration: number | null;
  legalBasis: string | null;
  version: number;
  target: string;
  externalHref?: string | null;
  archived?: boolean;
}

type Node = Record<string, unknown>;

const iri = (id: string): Node => ({ '@id': id });
const dateTime = (value: string): Node => ({ '@value': value, '@type': 'xsd:dateTime' });

/** An absolute http(s) or urn IRI, usable as a node's `@id`; anything else is only an identifier. */
function asIri(value: string): string | undefined {
  return /^(https?:\/\/[^\s<>"{}|\\^`]+|urn:[a-z0-9][a-z0-9-]{0,31}:[^\s<>"{}|\\^`]+)$/i.test(value) ? value : undefined;
}

/** A location as a DPV location concept: EU, EEA, or a code of ISO 3166-1 alpha-2 / 3166-2. */
export function locationTerm(location: string): string | undefined {
  const upper = location.trim().toUpperCase();
  if (upper === 'EU' || upper === 'EEA') return `loc:${upper}`;
  const code = normalizeJurisdiction(upper);
  return code ? `loc:${code}` : undefined;
}

/** The IRI of one version of a specification (the REST resource of that version). */
export function specVersionIri(spec: Pick<DpvSpec, 'target' | 'version'>): string {
  return `${spec.target}/versions/${spec.version}`;
}

/**
 * A specification as a DPV process: its purpose, personal data, processing operation, legal
 * basis, location and duration. Throws DpvMappingError naming every field DPV cannot express.
 */
export function specProcess(spec: DpvSpec): Node {
  const errors: Array<{ field: string; message: string }> = [];
  const basis = spec.legalBasis ?? 'CONSENT'; // unset: consent, as the receipt says
  const basisTerm = LEGAL_BASIS_TERMS[basis as keyof typeof LEGAL_BASIS_TERMS];
  if (!basisTerm) errors.push({ field: 'legalBasis', message: `${basis} has no DPV legal basis (only the GDPR's Art. 6(1) a–f bases map)` });
  const actionTerm = ACTION_TERMS[spec.action as Action];
  if (!actionTerm) errors.push({ field: 'action', message: `${spec.action} has no DPV processing operation` });
  const place = locationTerm(spec.location);
  if (!place) errors.push({ field: 'location', message: `"${spec.location}" is not EU, EEA or an ISO 3166 code, so no DPV location names it` });
  if (errors.length) throw new DpvMappingError(errors);
  const process: Node = {
    '@id': specVersionIri(spec),
    '@type': 'dpv:Process',
    'dct:identifier': spec.id,
    'dct:isVersionOf': iri(spec.target),
    'dpv:hasPurpose': { '@type': 'dpv:Purpose', 'dct:description': spec.purpose },
    'dpv:hasPersonalData': {
      '@type': spec.sensitive ? ['dpv:PersonalData', 'dpv:SpecialCategoryPersonalData'] : 'dpv:PersonalData',
      'dct:description': spec.data,
    },
    'dpv:hasProcessing': iri(actionTerm!),
    'dpv:hasLegalBasis': iri(basisTerm!),
    'dpv:hasLocation': iri(place!),
  };
  if (spec.duration !== null && spec.duration !== undefined) {
    process['dpv:hasStorageCondition'] = {
      '@type': 'dpv:StorageDuration',
      'dpv:hasDuration': { '@type': 'dpv:TemporalDuration', 'rdf:value': { '@value': `P${spec.duration}D`, '@type': 'xsd:duration' } },
    };
  }
  const notice = spec.externalHref ? asIri(spec.externalHref) : undefined;
  if (notice) process['dct:source'] = iri(notice);
  return process;
}

/** A specification's JSON-LD view: its process with the context at the top. */
export function specDocument(spec: DpvSpec): Node {
  return { '@context': DPV_CONTEXT, ...specProcess(spec) };
}

/**
 * What the record knows of the state before this event of the same subject, issuer, target and
 * scope: consent was `given`, it was `not-given` (no event, or the last was not a given consent),
 * or `unknown` (an export page that does not start at the subject's first event).
 */
export type PriorState = 'given' | 'not-given' | 'unknown';

/** Pages of an event's history (same subject, issuer, target and scope) walked to find the event before it. */
export const PRIOR_PAGES = 5;

/**
 * The state before an event, from its history newest first, one page at a time (`page(cursor)`;
 * the first page has no cursor): walked until the event and the one after it in that order, the
 * one before it in time; `unknown` past PRIOR_PAGES pages, or when the subject is erased (its
 * history can no longer be named). The consent service reads the pages from its store (app/records.ts).
 */
export async function priorStateOf(
  event: { id: string; erased: boolean },
  page: (cursor: string | undefined) => Promise<{ events: Array<{ id: string; action?: boolean | null }>; next?: string }>,
): Promise<PriorState> {
  if (event.erased) return 'unknown';
  let cursor: string | undefined;
  let seen = false;
  for (let n = 0; n < PRIOR_PAGES; n++) {
    const out = await page(cursor);
    for (const e of out.events) {
      if (seen) return e.action === true ? 'given' : 'not-given';
      if (e.id === event.id) seen = true;
    }
    if (!out.next) return seen ? 'not-given' : 'unknown';
    cursor = out.next;
  }
  return 'unknown';
}

/** The DPV consent state of an event: given, withdrawn, refused, or deferred (no action). */
export function consentState(event: Pick<ConsentEventJson, 'action' | 'gpc'>, prior: PriorState): string {
  if (event.action === true) return CONSENT_STATES.given;
  if (event.action === false) return prior === 'given' ? CONSENT_STATES.withdrawn : prior === 'not-given' ? CONSENT_STATES.refused : CONSENT_STATES.notGiven;
  // no click: a Global Privacy Control signal alone refuses (the subject's browser says "do not"),
  // whether a regime honours it is the decision's business, not the record's
  return event.gpc === true ? CONSENT_STATES.refused : CONSENT_STATES.deferred;
}

/** The signals that came with an event, as indication methods (DPV has no term per signal). */
function indicationMethods(event: ConsentEventJson): string[] {
  const out: string[] = [];
  if (event.gpc === true) out.push('Global Privacy Control (Sec-GPC: 1)');
  if (event.tcString) out.push(`IAB TCF v2 TC string: ${event.tcString}`);
  if (event.gppString) out.push(`IAB GPP string: ${event.gppString}`);
  if (event.source) out.push(`source: ${event.source}`);
  return out;
}

export interface RecordOptions {
  /** The installation's public base URL: a record's `@id` is its REST URL. */
  baseUrl: string;
  prior: PriorState;
  /** The specification of the target, as of the version shown, when the target is one and it was read. */
  spec?: DpvSpec;
}

/** The REST URL of an event, its record's `@id`. */
export function recordIri(baseUrl: string, id: string): string {
  return `${baseUrl}/consent/v0/consents/${id}`;
}

/**
 * One event as an ISO/IEC TS 27560 consent record in DPV (without `@context`: consentRecord adds
 * it, a receipt embeds the record). Throws DpvMappingError when the specification cannot be said.
 */
export function consentRecordNode(event: ConsentEventJson, options: RecordOptions): Node {
  const status: Node = {
    '@type': consentState(event, options.prior),
    'dpv:isIndicatedAtTime': dateTime(event.createdAt),
    'dpv:isIndicatedBy': event.delegate
      ? {
          '@type': 'dpv:Entity',
          'dct:identifier': event.delegate,
          'dpv:hasRelationWithDataSubject': { '@type': 'dpv:DataSubject', 'dct:identifier': event.subject },
        }
      : iri('dpv:DataSubject'),
  };
  const methods = indicationMethods(event);
  if (methods.length) status['dpv:hasIndicationMethod'] = methods.length === 1 ? methods[0] : methods;
  if (event.expiresAt) status['dpv:hasDuration'] = { '@type': 'dpv:UntilTimeDuration', 'rdf:value': dateTime(event.expiresAt) };

  const notice: Node = { '@type': 'dpv:ConsentNotice', 'dct:identifier': event.target };
  const target = asIri(event.target);
  if (target) notice['dct:isVersionOf'] = iri(target);
  if (event.targetVersion !== undefined) notice['dct:hasVersion'] = String(event.targetVersion);

  const record: Node = {
    '@id': recordIri(options.baseUrl, event.id),
    '@type': 'dpv:ConsentRecord',
    'dct:identifier': event.id,
    'dct:conformsTo': iri(DPV_27560_RECORD),
    'dct:created': dateTime(event.createdAt),
    'dpv:hasDataSubject': { '@type': 'dpv:DataSubject', 'dct:identifier': event.subject },
    'dpv:hasDataController': { '@type': 'dpv:DataController', 'dct:identifier': event.issuer },
    'dpv:hasNotice': notice,
    'dpv:hasConsentStatus': status,
  };
  if (event.jurisdiction) record['dpv:hasJurisdiction'] = iri(`loc:${event.jurisdiction}`);
  // the process the consent is about: the specification shown, else only the scope consented to
  record['dpv:hasProcess'] = options.spec
    ? specProcess(options.spec)
    : {
        '@type': 'dpv:Process',
        'dpv:hasPurpose': { '@type': 'dpv:Purpose', 'dct:description': `scope: ${event.scope}` },
        'dpv:hasLegalBasis': iri('dpv:Consent'),
      };
  return record;
}

/** One event's JSON-LD record, `@context` first. */
export function consentRecord(event: ConsentEventJson, options: RecordOptions): Node {
  return { '@context': DPV_CONTEXT, ...consentRecordNode(event, options) };
}

/**
 * The receipt of an event as a DPV consent receipt (guide §9): its identifier, creation time (the
 * signed receipt's), the record, and the signed receipt itself (a compact JWS) as the same receipt
 * in another format.
 */
export function consentReceipt(event: ConsentEventJson, jws: string, options: RecordOptions): Node {
  return {
    '@context': DPV_CONTEXT,
    '@id': `${recordIri(options.baseUrl, event.id)}/receipt`,
    '@type': 'dpv:ConsentReceipt',
    'dpv:hasIdentifier': event.id,
    'dct:conformsTo': iri(DPV_27560_RECEIPT),
    'dct:created': dateTime(`${event.createdAt.slice(0, 19)}Z`),
    'dct:hasFormat': { '@value': jws, '@type': 'xsd:string' },
    'dpv:hasRecordOfActivity': consentRecordNode(event, options),
  };
}

/** Whether a request asks for the JSON-LD view: `?format=jsonld`, or an Accept that prefers it. */
export function wantsJsonLd(format: unknown, preferred: string | false): boolean {
  if (format === JSONLD_FORMAT) return true;
  return preferred === JSONLD_MEDIA_TYPE;
}
