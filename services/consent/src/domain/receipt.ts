import { SignJWT, type JWK } from 'jose';
import type { KeyObject } from 'node:crypto';
import type { LogAnchor } from '@accord/proofs';
import { contracts } from '@accord/proto';
import type { ConsentEvent } from './consent';

/** What a receipt needs from a data processing specification (GetSpecForConsent). */
export interface SpecDetails {
  id: string;
  version: number;
  data: string;
  purpose: string;
  action: string;
  sensitive: boolean;
  legalBasis: string;
  externalHref: string;
  location: string;
  duration?: number;
  groupName: string;
  groupPurpose: string;
  archived: boolean;
  /** Days a consent to the specification stays valid (new consents get expiresAt from it). */
  consentValidityDays?: number;
  /** The latest version made by a material change: consents to older versions are due for renewal. */
  reconsentSince?: number;
  /** How consent works per jurisdiction (normalised); absent from a data processing service that predates regimes (the default `{"*": opt-in}`). */
  regimes?: contracts.regimes.Regimes;
}

export interface ReceiptSettings {
  /** Public base URL of the installation (no trailing slash). */
  baseUrl: string;
  jurisdiction: string;
  controllerName: string;
  controllerContact: string;
  language: string;
}

export const RECEIPT_VERSION = 'KI-CR-v1.1.0';

/** The id of the specification an event's target names (the rule is the REST contracts'). */
export const specIdOfTarget = contracts.dataprocessing.specIdOfTarget;

/**
 * The receipt claims for an event, per the Kantara Initiative Consent Receipt Specification
 * v1.1.0 field names, plus standard JWT claims (iss, sub, iat, jti) and an `accord` claim with
 * what Kantara has no field for (the action, scope, token, issuer, source, delegate of the event).
 * Deterministic: the same event, spec and settings give the same claims. Once the event is
 * sequenced in the account's log, `accord.log` anchors it ({leafIndex, treeSize, rootHash} of
 * the head the receipt was issued against), so receipt + proof + head verify offline.
 */
export function receiptClaims(
  ev: ConsentEvent,
  spec: SpecDetails | undefined,
  settings: ReceiptSettings,
  publicJwk: JWK,
  log?: LogAnchor,
): Record<string, unknown> {
  const consentTimestamp = Math.floor(ev.createdAt.getTime() / 1000);
  const isUrl = /^https?:\/\//i.test(ev.target);
  const purpose: Record<string, unknown> = spec
    ? {
        purpose: spec.purpose || ev.scope,
        purposeCategory: [spec.groupPurpose || spec.purpose].filter(Boolean),
        consentType: 'EXPLICIT',
        piiCategory: [spec.data].filter(Boolean),
        primaryPurpose: true,
        termination: spec.duration ? `${spec.duration} days` : 'withdrawal of consent',
        thirdPartyDisclosure: false,
        legalBasis: spec.legalBasis || 'CONSENT',
        ...(spec.action ? { processingAction: spec.action } : {}),
        ...(spec.location ? { location: spec.location } : {}),
      }
    : {
        purpose: ev.scope,
        purposeCategory: [],
        consentType: 'EXPLICIT',
        piiCategory: [],
        primaryPurpose: true,
        termination: 'withdrawal of consent',
        thirdPartyDisclosure: false,
      };
  const policyUrl = spec?.externalHref || (isUrl ? ev.target : `${settings.baseUrl}/consent/v0/consents/${ev.id}`);
  return {
    version: RECEIPT_VERSION,
    jurisdiction: settings.jurisdiction,
    consentTimestamp,
    collectionMethod: ev.delegate ? 'delegated' : ev.source ? `source: ${ev.source}` : 'consent API',
    consentReceiptID: ev.id,
    publicKey: JSON.stringify(publicJwk),
    language: settings.language,
    piiPrincipalId: ev.subject,
    piiControllers: [
      {
        piiController: settings.controllerName,
        contact: settings.controllerContact,
        onBehalf: false,
        piiControllerUrl: settings.baseUrl,
      },
    ],
    policyUrl,
    services: [{ service: spec ? spec.groupName || spec.purpose || ev.target : ev.target, purposes: [purpose] }],
    sensitive: spec?.sensitive ?? false,
    spiCat: spec?.sensitive && spec.data ? [spec.data] : [],
    // JWT claims
    iss: `${settings.baseUrl}/consent/v0`,
    sub: ev.subject,
    iat: consentTimestamp,
    jti: ev.id,
    accord: {
      eventId: ev.id,
      action: ev.action,
      scope: ev.scope,
      token: ev.token,
      issuer: ev.issuer,
      target: ev.target,
      ...(ev.source !== undefined ? { source: ev.source } : {}),
      ...(ev.delegate !== undefined ? { delegate: ev.delegate } : {}),
      createdAt: ev.createdAt.toISOString(),
      // an imported event: createdAt (and iat) is the subject's original time, importedAt when it came in (docs/consent.md, Import)
      ...(ev.importedAt !== undefined ? { importedAt: ev.importedAt.toISOString() } : {}),
      ...(ev.targetVersion !== undefined ? { targetVersion: ev.targetVersion } : {}),
      ...(ev.expiresAt !== undefined ? { expiresAt: ev.expiresAt.toISOString() } : {}),
      // the signals the choice was made with (docs/consent.md, Signals and regimes)
      ...(ev.gpc !== undefined ? { gpc: ev.gpc } : {}),
      ...(ev.jurisdiction !== undefined ? { jurisdiction: ev.jurisdiction } : {}),
      ...(ev.tcString !== undefined ? { tcString: ev.tcString } : {}),
      ...(ev.tcf ? { tcf: ev.tcf } : {}),
      ...(ev.addtlConsent !== undefined ? { addtlConsent: ev.addtlConsent } : {}),
      ...(ev.gppString !== undefined ? { gppString: ev.gppString } : {}),
      ...(ev.gpp ? { gpp: ev.gpp } : {}),
      ...(spec ? { spec: { id: spec.id, version: spec.version, archived: spec.archived } } : {}),
      ...(log ? { log: { leafIndex: log.leafIndex, treeSize: log.treeSize, rootHash: log.rootHash } } : {}),
    },
  };
}

/** Signs claims as a compact JWS (typ JWT) with the given asymmetric key. */
export async function signReceipt(claims: Record<string, unknown>, key: { kid: string; alg: 'ES256' | 'RS256'; privateKey: KeyObject }): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
}
