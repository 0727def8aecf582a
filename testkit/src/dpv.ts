// Checks a DPV JSON-LD answer (proto/src/contracts/dpv.ts) with a JSON-LD processor, offline: the
// `jsonld` package expands it in safe mode (a term that does not expand to an IRI is an error, not
// a silent drop) with a document loader that refuses every URL (the context is inline), then every
// property and type must be an IRI of a vocabulary the context names, and every DPV term one that
// DPV 2.2 defines.
import { contracts } from '@accord/proto';

// jsonld ships no types; the two calls used here
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jsonld = require('jsonld') as {
  expand(doc: unknown, options: { safe: boolean; documentLoader: (url: string) => Promise<never> }): Promise<ExpandedNode[]>;
};

type ExpandedNode = Record<string, unknown>;

/**
 * The DPV 2.2 terms the mapping uses, each looked up in DPV 2.2's dpv.ttl (w3c/dpv, 2.2/dpv): a
 * term outside this list is a typo or a term DPV does not have.
 */
export const DPV_TERMS: ReadonlySet<string> = new Set(
  [
    // classes
    'ConsentRecord',
    'ConsentReceipt',
    'DataSubject',
    'DataController',
    'ConsentNotice',
    'Process',
    'Purpose',
    'PersonalData',
    'SpecialCategoryPersonalData',
    'StorageDuration',
    'TemporalDuration',
    'UntilTimeDuration',
    'Entity',
    'Consent',
    'ConsentGiven',
    'ConsentWithdrawn',
    'ConsentRefused',
    'ConsentStatusInvalidForProcessing',
    'ConsentRequestDeferred',
    'Collect',
    'Store',
    'Use',
    'Analyse',
    'Profiling',
    'Share',
    'Transfer',
    'Erase',
    // properties
    'hasDataSubject',
    'hasDataController',
    'hasNotice',
    'hasConsentStatus',
    'isIndicatedAtTime',
    'isIndicatedBy',
    'hasIndicationMethod',
    'hasDuration',
    'hasJurisdiction',
    'hasProcess',
    'hasPurpose',
    'hasPersonalData',
    'hasProcessing',
    'hasLegalBasis',
    'hasLocation',
    'hasStorageCondition',
    'hasRelationWithDataSubject',
    'hasIdentifier',
    'hasRecordOfActivity',
  ].map((t) => `https://w3id.org/dpv#${t}`),
);

/** DCMI terms the guide uses for record metadata. */
const DCT_TERMS = new Set(
  ['identifier', 'conformsTo', 'created', 'isVersionOf', 'hasVersion', 'description', 'source', 'hasFormat'].map((t) => `http://purl.org/dc/terms/${t}`),
);

/** GDPR legal bases of DPV 2.2's legal/eu/gdpr the mapping uses. */
const GDPR_TERMS = new Set(
  ['A6-1-a', 'A6-1-b', 'A6-1-c', 'A6-1-d', 'A6-1-e-public-interest', 'A6-1-e-official-authority', 'A6-1-f'].map(
    (t) => `https://w3id.org/dpv/legal/eu/gdpr#${t}`,
  ),
);

const RDF_VALUE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#value';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Why a vocabulary IRI (a property, a type, or a concept used as a value) is not acceptable, or undefined. */
function vocabularyProblem(iri: string): string | undefined {
  const ctx = contracts.dpv.DPV_CONTEXT;
  if (iri.startsWith(ctx.dpv)) return DPV_TERMS.has(iri) ? undefined : `${iri} is not a DPV 2.2 term the mapping knows`;
  if (iri.startsWith(ctx['eu-gdpr'])) return GDPR_TERMS.has(iri) ? undefined : `${iri} is not a GDPR legal basis of DPV`;
  if (iri.startsWith(ctx.loc)) return /^[A-Z]{2}(-[A-Z0-9]{1,3})?$|^EEA$/.test(iri.slice(ctx.loc.length)) ? undefined : `${iri} is not a DPV location`;
  if (iri.startsWith(ctx.dct)) return DCT_TERMS.has(iri) ? undefined : `${iri} is not a DCMI term the mapping uses`;
  if (iri === RDF_VALUE) return undefined;
  if (iri.startsWith(XSD)) return undefined;
  return `${iri} is in no vocabulary the context names`;
}

/** Non-keyword keys of a JSON-LD document, all levels (the compact form). */
function countKeys(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((n: number, v) => n + countKeys(v), 0);
  if (!node || typeof node !== 'object') return 0;
  let n = 0;
  for (const [k, v] of Object.entries(node)) {
    if (k === '@context') continue;
    if (!k.startsWith('@')) n += 1;
    n += countKeys(v);
  }
  return n;
}

/** Expands a DPV JSON-LD document offline, in safe mode. */
export async function expandDpv(doc: unknown): Promise<ExpandedNode[]> {
  return jsonld.expand(doc, {
    safe: true,
    documentLoader: async (url: string) => {
      throw new Error(`refused to load ${url}: the DPV view's context is inline, nothing is fetched`);
    },
  });
}

/**
 * Every problem of a DPV JSON-LD answer: no `@context` first, a term lost in expansion, a
 * property or type (or a concept named as a value) outside the named vocabularies. Empty: fine.
 */
export async function dpvProblems(doc: Record<string, unknown>): Promise<string[]> {
  const problems: string[] = [];
  if (Object.keys(doc)[0] !== '@context') problems.push('@context is not the first key');
  const expanded = await expandDpv(doc);
  if (countKeys(expanded) !== countKeys(doc)) problems.push(`expansion kept ${countKeys(expanded)} of ${countKeys(doc)} keys`);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (k === '@type') {
        for (const t of Array.isArray(v) ? v : [v]) {
          const p = vocabularyProblem(String(t));
          if (p) problems.push(`type: ${p}`);
        }
        continue;
      }
      if (k === '@id') {
        const id = String(v);
        // concepts of the vocabularies are checked; instances (Accord's URLs, targets) are the data
        if (Object.values(contracts.dpv.DPV_CONTEXT).some((ns) => id.startsWith(ns))) {
          const p = vocabularyProblem(id);
          if (p) problems.push(`value: ${p}`);
        }
        continue;
      }
      if (k.startsWith('@')) continue;
      const p = vocabularyProblem(k);
      if (p) problems.push(`property: ${p}`);
      visit(v);
    }
  };
  visit(expanded);
  return problems;
}
