/**
 * The data processing registry's vocabulary: groups, specifications and their texts, and the
 * values their fields may take. Plain data, no I/O.
 */

// The values the fields may take and the limits are the contract's, shared with the gateway's
// OpenAPI document (see docs/contracts.md).
import { contracts } from '@accord/proto';

export const { ACTIONS, LEGAL_BASES, TEXT_TYPES, LIMITS, CONSENT_MODE_TYPES } = contracts.dataprocessing;
export type ConsentModeType = contracts.dataprocessing.ConsentModeType;
export type Regimes = contracts.regimes.Regimes;
export type Action = contracts.dataprocessing.Action;
export type LegalBasis = contracts.dataprocessing.LegalBasis;
export type TextType = contracts.dataprocessing.TextType;

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
  /** How consent works per jurisdiction, normalised (contracts/regimes.ts): `*` always present. */
  regimes: Regimes;
  /** Google Consent Mode v2 types the specification governs (absent: none; stored sorted, no duplicates). */
  consentMode?: ConsentModeType[];
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
