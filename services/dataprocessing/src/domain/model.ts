/**
 * The data processing registry's vocabulary: groups, specifications and their texts, and the
 * values their fields may take. Plain data, no I/O.
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
} as const;

export interface GroupState {
  name: string;
  description: string;
  purpose: string;
}

export interface GroupRecord extends GroupState {
  id: string;
  accountId: string;
  appId: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** The fields of a specification that a client sets. */
export interface SpecState {
  data: string;
  purpose: string;
  action: Action;
  sensitive: boolean;
  consentTarget: boolean;
  location: string;
  duration: number | null;
  legalBasis: LegalBasis | null;
  externalHref: string | null;
  /** Days a consent to the specification stays valid; absent (or null): consents do not expire. */
  consentValidityDays?: number | null;
}

export interface TextState {
  value: string;
  language: string;
  type: TextType;
}

export interface TextRecord extends TextState {
  /** Integer, unique within its specification (1, 2, 3…; never reused). */
  id: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface SpecRecord extends SpecState {
  id: string;
  accountId: string;
  groupId: string;
  texts: TextRecord[];
  nextTextId: number;
  /** 1 on creation, +1 on every change of fields or texts. */
  version: number;
  /**
   * The latest version made by a material change (isMaterial, or marked `requiresReconsent`); 1
   * on creation. Consents to an older version are due for renewal.
   */
  reconsentSince: number;
  /** The application that made the current version. */
  appId: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/**
 * One state of a specification, current or previous. The chain of version records is the
 * source of truth (one record per (spec, version), guarded by a unique index); the
 * specification document is a copy of its newest record, kept for lists.
 */
export interface SpecVersionRecord {
  specId: string;
  accountId: string;
  version: number;
  /** When this version was made (the spec's updatedAt at the time) and by which application. */
  createdAt: Date;
  appId: string;
  state: SpecState;
  groupId: string;
  texts: TextRecord[];
  nextTextId: number;
  specCreatedAt: Date;
  /** See SpecRecord.reconsentSince (records made before it existed: 1). */
  reconsentSince: number;
  /** Set on the version that deleted (archived) the specification. */
  deletedAt: Date | null;
}
