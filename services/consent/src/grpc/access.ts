import type { AccessTable, RpcAccess } from '@accord/common';
import type { consentactivityv1, consentimportv1, consentv1 } from '@accord/proto';

/** Platform callers with the `consent` scope, in their own account, and the gateway (REST, the console) for any. */
const platform: RpcAccess = { scope: 'consent', services: ['gateway'] };

/**
 * Who may call each RPC of the consent service (read by its gRPC server; an RPC without a row
 * does not start). Internal callers: dataprocessing reads current states (consent requests and
 * dashboards), the operator's `admin export` reads exports.
 */
export const consentAccess: AccessTable<consentv1.ConsentServiceServer> = {
  createConsents: platform,
  getConsent: platform,
  getConsentsByToken: platform,
  searchConsents: platform,
  // each search names its own account: the gateway (which binds each to its REST caller) only
  searchConsentsBatch: { services: ['gateway'] },
  getReceipt: platform,
  getConsentRecord: platform,
  getStatistics: platform,
  getCurrentStates: { ...platform, services: ['gateway', 'dataprocessing'] },
  exportConsents: { ...platform, services: ['gateway', 'admin'], appFilter: true },
  exportConsentRecords: { ...platform, appFilter: true },
  exportSubject: { ...platform, appFilter: true },
  // the receipts' public keys, published at /.well-known/jwks.json anyway
  getReceiptKeys: { services: [], public: true },
  getTreeHead: platform,
  getInclusionProof: platform,
  getConsistencyProof: platform,
  eraseSubject: platform,
  listErasures: platform,
  decide: platform,
  linkSubject: platform,
  listSubjectLinks: platform,
};

export const activityAccess: AccessTable<consentactivityv1.ConsentActivityServiceServer> = {
  getDailyActivity: platform,
  getActivityReport: platform,
};

/** Imports (app/imports.ts): platform callers with the `consent` scope in their own account, and the gateway. */
export const importAccess: AccessTable<consentimportv1.ConsentImportServiceServer> = {
  startImport: platform,
  importLines: platform,
  finishImport: platform,
  getImport: platform,
};
