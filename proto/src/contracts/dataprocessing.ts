import ISO6391 from 'iso-639-1';
import { z } from 'zod';
import { componentSchemas, contractRegistry } from './json-schema';
import { Jurisdiction, REGIME_GPC, REGIME_MODELS, RegimesInput } from './regimes';

/**
 * The data processing contract: what a group, a specification and a text may hold. One source
 * for the gateway's OpenAPI component schemas (generated from the zod schemas below, and
 * enforced on every request by validating against that document) and for the dataprocessing
 * service's validator (its enums, field lists and LIMITS are these).
 */

/**
 * Processing actions a specification may declare:
 * - collect: data is gathered from the subject or a third party;
 * - store: data is kept (use `duration` for the retention period in days);
 * - use: data is used for the stated purpose;
 * - analyze: data is analysed, e.g. statistics or quality measurement;
 * - profile: data is used to evaluate or predict personal aspects (profiling);
 * - share: data is disclosed to another party;
 * - transfer: data is moved to another location or jurisdiction (see `location`);
 * - delete: data is erased (e.g. after `duration` days).
 */
export const ACTIONS = ['collect', 'store', 'use', 'analyze', 'profile', 'share', 'transfer', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

/** Legal bases, as the interface lists them. */
export const LEGAL_BASES = [
  'CONSENT',
  'CONTRACT',
  'LEGAL_OBLIGATION',
  'VITAL_INTEREST',
  'PUBLIC_INTEREST',
  'OFFICIAL_AUTHORITY',
  'LEGITIMATE_INTEREST',
  'LEGITIMATE_INTEREST_3RDPARTY',
  'CUSTOM',
] as const;
export type LegalBasis = (typeof LEGAL_BASES)[number];

/**
 * Text types, one text per (language, type) in a specification:
 * - default: for a general audience (used when no type is given);
 * - short: one line, e.g. for a consent checkbox label;
 * - children: worded for minors;
 * - legal: the full formal wording.
 */
export const TEXT_TYPES = ['default', 'short', 'children', 'legal'] as const;
export type TextType = (typeof TEXT_TYPES)[number];

/**
 * Google Consent Mode v2 types a specification may govern: the web components tell Google tags
 * (`gtag('consent', 'default' | 'update', …)`) that a type is granted only when every
 * specification mapped to it is (docs/consent.md, Standards).
 */
export const CONSENT_MODE_TYPES = [
  'ad_storage',
  'ad_user_data',
  'ad_personalization',
  'analytics_storage',
  'functionality_storage',
  'personalization_storage',
  'security_storage',
] as const;
export type ConsentModeType = (typeof CONSENT_MODE_TYPES)[number];

export const LIMITS = {
  /** Previous versions kept per specification; the oldest is dropped first. */
  versionsKept: 100,
  textsPerSpec: 100,
  nameLength: 200,
  descriptionLength: 2_000,
  purposeLength: 1_000,
  dataLength: 500,
  locationLength: 100,
  textLength: 10_000,
  urlLength: 2_000,
  /** Longest duration accepted, in days (100 years). */
  durationDays: 36_500,
  /** Page size of the lists: default and largest. */
  pageSizeDefault: 50,
  pageSizeMax: 200,
  cursorLength: 200,
  /** Subject and issuer of a dashboard query. */
  partyLength: 2_048,
} as const;

/** ISO 639-1 codes as the service accepts them: lower or upper case (stored lower-case). */
export const LANGUAGE_CODES = ISO6391.getAllCodes().flatMap((c) => [c, c.toUpperCase()]);
export const LANGUAGE_CODE_MESSAGE = 'must be an ISO 639-1 two-letter language code';

/** Fields a client sets, in the order of the proto messages (also the PUT/PATCH update masks). */
export const GROUP_FIELDS = ['name', 'description', 'purpose'] as const;
export const SPEC_FIELDS = [
  'data',
  'purpose',
  'action',
  'sensitive',
  'consentTarget',
  'location',
  'duration',
  'legalBasis',
  'externalHref',
  'consentValidityDays',
  'regimes',
  'consentMode',
] as const;
export const TEXT_FIELDS = ['value', 'language', 'type'] as const;

const registry = contractRegistry();

const ConsentModeTypeSchema = z.enum(CONSENT_MODE_TYPES).meta({ 'x-error-message': `must be one of ${CONSENT_MODE_TYPES.join(', ')}` });
const ConsentMode = z.array(ConsentModeTypeSchema).max(CONSENT_MODE_TYPES.length);

const nonBlank = (max: number) => z.string().min(1).regex(/\S/).max(max);
const days = () => z.int().min(1).max(LIMITS.durationDays);
const nullableText = (max: number, description: string) => z.string().max(max).nullable().optional().describe(description);

export const LanguageCode = z.enum(LANGUAGE_CODES as [string, ...string[]]).meta({
  description: 'An ISO 639-1 two-letter language code, lower or upper case.',
  'x-error-message': LANGUAGE_CODE_MESSAGE,
});
registry.add(LanguageCode, { id: 'LanguageCode' });

export const GroupInput = z.strictObject({
  name: nullableText(LIMITS.nameLength, 'Name; the title of the consent request.'),
  description: nullableText(LIMITS.descriptionLength, 'Description; the caption of the consent request.'),
  purpose: nullableText(LIMITS.purposeLength, 'Purpose of the processing, e.g. marketing.'),
});
registry.add(GroupInput, { id: 'DpGroupInput' });

const textFields = {
  value: nonBlank(LIMITS.textLength).describe('The text shown to customers, in `language`.'),
  language: LanguageCode.describe('ISO 639-1 code (stored lower-case).'),
  type: z
    .enum(TEXT_TYPES)
    .nullable()
    .optional()
    .describe(
      'Audience: default (general, when absent), short (one line, e.g. a checkbox label), children (worded for minors), legal (full formal wording). One text per language and type.',
    ),
};
export const TextCreateRequest = z.strictObject(textFields);
registry.add(TextCreateRequest, { id: 'DpTextCreateRequest' });
export const TextPatchRequest = z.strictObject({ ...textFields, value: textFields.value.optional(), language: textFields.language.optional() });
registry.add(TextPatchRequest, { id: 'DpTextPatchRequest' });

const specFields = {
  data: nonBlank(LIMITS.dataLength).describe('The data processed, e.g. `e-mail`.'),
  purpose: nonBlank(LIMITS.purposeLength).describe('Purpose of the processing.'),
  action: z
    .enum(ACTIONS)
    .describe(
      'collect: gathered from the subject or a third party; store: kept (retention in `duration`); use: used for the purpose; analyze: statistics, measurement; profile: evaluating or predicting personal aspects; share: disclosed to another party; transfer: moved to another location or jurisdiction; delete: erased.',
    ),
  sensitive: z.boolean().nullable().optional().describe('Special-category (sensitive) data. Default false.'),
  consentTarget: z.boolean().nullable().optional().describe('Whether consent is asked for this specification (consent request, dashboard). Default true.'),
  location: z
    .string()
    .min(1)
    .max(LIMITS.locationLength)
    .nullable()
    .optional()
    .describe(
      'Where the processing happens, e.g. an ISO 3166 country code, `EU` or `EEA`. Default: the deployment’s ACCORD_DEFAULT_LOCATION (`EU` unless configured).',
    ),
  duration: days().nullable().optional().describe('Duration of the action in days (e.g. retention for `store`).'),
  legalBasis: z
    .literal([...LEGAL_BASES, null])
    .optional()
    .describe('Legal basis of the processing; null when not stated.'),
  externalHref: z.url().max(LIMITS.urlLength).nullable().optional().describe('Absolute http(s) URL of external content, e.g. a privacy policy.'),
  consentValidityDays: days()
    .nullable()
    .optional()
    .describe(
      'Days a consent to this specification stays valid: consent events to it without their own `expiresAt` get one this many days after they are made. Null or absent: no expiry.',
    ),
  regimes: RegimesInput.nullable()
    .optional()
    .describe(
      'How consent works per jurisdiction (docs/consent.md, Signals and regimes). Null or absent: `{"*": {"model": "opt-in"}}`, nothing until accepted everywhere. A change is material.',
    ),
  consentMode: ConsentMode.nullable()
    .optional()
    .describe(
      'Google Consent Mode v2 types this specification governs in the web components (docs/consent.md, Standards): a type is granted only when every specification mapped to it is. Null or absent: none.',
    ),
};
const optionalSpecFields = Object.fromEntries(Object.entries(specFields).map(([k, v]) => [k, v.optional()])) as {
  [K in keyof typeof specFields]: z.ZodOptional<(typeof specFields)[K]>;
};

/** A flag of the change, not a field of the specification (never returned). */
const requiresReconsent = z
  .boolean()
  .optional()
  .describe(
    'Marks this change material: current consents to earlier versions become due for renewal (`renewalRequired`), whatever the change (a change with only this flag still makes a new version, e.g. after text edits that need a new answer). Changes of purpose, data, action, legalBasis, duration, location or sensitive are material without it.',
  );

export const SpecCreateRequest = z.strictObject({
  ...specFields,
  texts: z.array(TextCreateRequest).max(LIMITS.textsPerSpec).optional().describe('Texts created with the specification.'),
});
registry.add(SpecCreateRequest, { id: 'DpSpecCreateRequest' });
export const SpecPatchRequest = z.strictObject({ ...optionalSpecFields, requiresReconsent });
registry.add(SpecPatchRequest, { id: 'DpSpecPatchRequest' });
export const SpecPutRequest = z.strictObject({ ...specFields, requiresReconsent });
registry.add(SpecPutRequest, { id: 'DpSpecPutRequest' });

/** A list's page cursor: the id of the last group or specification received; any id is a position the list continues from. */
export const LIST_CURSOR_PATTERN = /^[0-9a-f]{24}$/;

export const ListQuery = z.object({
  limit: z.int().min(1).max(LIMITS.pageSizeMax).default(LIMITS.pageSizeDefault).describe(`Page size (default ${LIMITS.pageSizeDefault}).`),
  cursor: z
    .string()
    .max(LIMITS.cursorLength)
    .regex(LIST_CURSOR_PATTERN)
    .optional()
    .describe('From the `Link: rel="next"` header of the previous page: the id of its last item (the list continues after it).'),
});
registry.add(ListQuery, { id: 'DpListQuery' });

const signalFields = {
  jurisdiction: Jurisdiction.optional().describe(
    'Where the subject is (ISO 3166-1 alpha-2 or ISO 3166-2): each item answers the regime of its specification there. Absent: the gateway’s trusted geo header when configured (ACCORD_GEO_HEADER), else `*`.',
  ),
  gpc: z
    .boolean()
    .optional()
    .describe(
      'The subject’s browser sends a Global Privacy Control signal (`navigator.globalPrivacyControl`); where the regime honours it, it pre-selects a decline.',
    ),
};
const viewFields = {
  lang: LanguageCode.optional().describe(
    'Preferred ISO 639-1 language of the texts. Fallback per specification: this language, then `en`, then the oldest text in any language; without any text, the specification purpose.',
  ),
  type: z.enum(TEXT_TYPES).optional().describe('Preferred text type (default `default`); within a language falls back to `default`, then any type.'),
};
export const PolicyQuery = z.object(viewFields);
registry.add(PolicyQuery, { id: 'DpPolicyQuery' });
export const ViewQuery = z.object({ ...signalFields, ...viewFields });
registry.add(ViewQuery, { id: 'DpViewQuery' });
const party = (description: string) => z.string().min(1).max(LIMITS.partyLength).describe(description);
export const DashboardQuery = z.object({
  subject: party('The subject whose consents are shown.'),
  issuer: party('The issuer the consents were given to.'),
  ...signalFields,
  ...viewFields,
});
registry.add(DashboardQuery, { id: 'DpDashboardQuery' });

// --- answers ------------------------------------------------------------------------------

const dateTime = () => z.iso.datetime({ offset: true });
const material = 'purpose, data, action, legalBasis, duration, location, sensitive or regimes changed, or the editor sent `requiresReconsent: true`';

const regime = {
  model: z.enum(REGIME_MODELS),
  gpc: z.enum(REGIME_GPC),
};
/** Regimes as answered: normalised, `*` always present, `gpc` explicit. */
const Regimes = z
  .record(z.string(), z.object(regime))
  .describe('How consent works per jurisdiction, normalised: keys upper case, `gpc` explicit, `*` always present (docs/consent.md, Signals and regimes).');

export const Group = z.object({
  id: z.string().describe('24 hex characters.'),
  name: z.string().describe('Title of the consent request.'),
  description: z.string().describe('Caption of the consent request.'),
  purpose: z.string(),
  appId: z.string().describe('Owner: the application that created the group (Accord has no user accounts, so there is no `userId`).'),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
registry.add(Group, { id: 'DpGroup' });

export const Text = z.object({
  id: z.int().describe('Unique within its specification; never reused.'),
  value: z.string(),
  language: z.string(),
  type: z.enum(TEXT_TYPES),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
registry.add(Text, { id: 'DpText' });

/** The specification facts every view repeats. */
const facts = {
  data: z.string(),
  purpose: z.string(),
  action: z.enum(ACTIONS),
  sensitive: z.boolean(),
};
const optionalFacts = {
  duration: z.int().nullable().optional(),
  legalBasis: z.literal([...LEGAL_BASES, null]).optional(),
  externalHref: z.string().nullable().optional(),
};

export const Spec = z.object({
  id: z.string().describe('24 hex characters.'),
  groupId: z.string(),
  ...facts,
  consentTarget: z.boolean(),
  location: z.string(),
  ...optionalFacts,
  texts: z.array(Text),
  version: z.int().describe('1 on creation, +1 on every change of fields or texts (and on deletion).'),
  reconsentSince: z
    .int()
    .describe(
      `The latest version made by a material change: ${material}. 1 on creation. Text edits and other fields are not material unless marked. Current consents to an older version show \`renewalRequired: true\`.`,
    ),
  target: z.url().describe('Consent target URL: `{base_url}/dataprocessing/v0/dpspecs/<id>`.'),
  appId: z.string().describe('Application that made the current version.'),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  archived: z.boolean().describe('True once deleted: still readable (with its versions) so consent events stay explainable; read-only and not listed.'),
  deletedAt: dateTime().nullable().optional(),
  consentValidityDays: z.int().optional().describe('Present when set: days a consent to this specification stays valid.'),
  regimes: Regimes,
  consentMode: z.array(z.enum(CONSENT_MODE_TYPES)).describe('Google Consent Mode v2 types this specification governs (empty: none).'),
});
registry.add(Spec, { id: 'DpSpec' });

export const SpecVersion = z.object({
  specId: z.string(),
  version: z.int(),
  createdAt: dateTime().describe('When this version was made.'),
  appId: z.string().describe('The application that made it.'),
  current: z.boolean(),
  spec: Spec,
});
registry.add(SpecVersion, { id: 'DpSpecVersion' });

export const ConsentRequestItem = z.object({
  specId: z.string(),
  target: z.url().describe('Use as `target` of the consent event.'),
  text: z.xor([Text, z.null()]).describe('The chosen text (see `lang`); null when the specification has none.'),
  ...facts,
  location: z.string(),
  duration: optionalFacts.duration.unwrap(),
  legalBasis: optionalFacts.legalBasis.unwrap(),
  externalHref: optionalFacts.externalHref.unwrap(),
  version: z.int().describe('Current version of the specification.'),
  regime: z
    .object({ key: z.string().describe('The key of `regimes` that applies: the jurisdiction’s code, a less specific one, or `*`.'), ...regime })
    .describe('The specification’s regime in the view’s jurisdiction (most specific key wins).'),
  preselected: z
    .boolean()
    .nullable()
    .describe(
      'What the UI pre-selects: opt-in false, opt-out true, the subject’s current choice on a dashboard, false when a GPC signal is applied; null under notice (no choice to make).',
    ),
  gpcApplied: z
    .boolean()
    .describe(
      'A Global Privacy Control signal decided `preselected` (the UI says so): the regime honours GPC and no explicit choice was made with the signal on.',
    ),
  regimes: Regimes.describe('The specification’s regimes in every jurisdiction: the web components set Google Consent Mode defaults per region from them.'),
  consentMode: z.array(z.enum(CONSENT_MODE_TYPES)).describe('Google Consent Mode v2 types the specification governs (empty: none).'),
});
registry.add(ConsentRequestItem, { id: 'DpConsentRequestItem' });

const viewSignals = {
  jurisdiction: z.string().nullable().describe('The jurisdiction the regimes were chosen for (query, else the trusted geo header); null: none (`*`).'),
  gpc: z.boolean().describe('Whether a GPC signal was taken into account (the `gpc` query).'),
};

export const ConsentRequest = z.object({
  groupId: z.string(),
  title: z.string(),
  caption: z.string(),
  language: z.string().nullable().describe('The requested language (each text says its own).'),
  ...viewSignals,
  items: z.array(ConsentRequestItem),
});
registry.add(ConsentRequest, { id: 'DpConsentRequest' });

const CONSENT_STATES = ['accepted', 'declined', 'no_action'] as const;
export const Dashboard = z.object({
  groupId: z.string(),
  title: z.string(),
  caption: z.string(),
  language: z.string().nullable(),
  subject: z.string(),
  issuer: z.string(),
  ...viewSignals,
  items: z.array(
    z.intersection(
      ConsentRequestItem,
      z.object({
        state: z.enum([...CONSENT_STATES, 'none']).describe('State of the `default` scope; `none` without any event.'),
        scopes: z
          .array(
            z.object({
              scope: z.string(),
              state: z.enum(CONSENT_STATES),
              eventId: z.string(),
              createdAt: dateTime().nullable(),
              targetVersion: z.int().optional().describe('The specification version the event consented to; present when it names one.'),
              renewalRequired: z
                .boolean()
                .optional()
                .describe(
                  'Present and true when the specification changed materially after that version (its `reconsentSince` is later): the subject needs to answer again.',
                ),
              gpc: z.boolean().optional().describe('The event’s `gpc`, when it says.'),
            }),
          )
          .describe('Current event of every scope of the target, `default` first.'),
      }),
    ),
  ),
});
registry.add(Dashboard, { id: 'DpDashboard' });

/** The OpenAPI component schemas of the data processing requests and answers, by name. */
export const dataprocessingSchemas = componentSchemas(registry);

/**
 * The id of the specification an event's target names (docs/consent.md, *Receipts*):
 * `{baseUrl}/dataprocessing/v0/dpspecs/<id>` or `urn:accord:dpspec:<id>`: the consent service's
 * receipts, decisions and records, and the gateway's DPV views read it here.
 */
export function specIdOfTarget(target: string, baseUrl: string): string | undefined {
  const prefix = `${baseUrl.replace(/\/+$/, '')}/dataprocessing/v0/dpspecs/`;
  let rest: string | undefined;
  if (target.startsWith(prefix)) rest = target.slice(prefix.length);
  else if (target.startsWith('urn:accord:dpspec:')) rest = target.slice('urn:accord:dpspec:'.length);
  if (rest === undefined) return undefined;
  rest = rest.replace(/\/+$/, '');
  return /^[A-Za-z0-9_-]{1,128}$/.test(rest) ? rest : undefined;
}

/** The consent target URL of a specification: `{baseUrl}/dataprocessing/v0/dpspecs/<id>`. */
export function specTargetOf(baseUrl: string, specId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/dataprocessing/v0/dpspecs/${specId}`;
}
