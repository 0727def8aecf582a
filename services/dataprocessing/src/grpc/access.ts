import type { AccessTable, RpcAccess } from '@accord/common';
import type { dataprocessingv1 } from '@accord/proto';

/** Platform callers with the `dataprocessing` scope, in their own account, and the gateway (REST, the console) for any. */
const platform: RpcAccess = { scope: 'dataprocessing', services: ['gateway'] };
/** The consent service's reads of specifications (what a consent event was given to) and its renewal queue. */
const consentService: RpcAccess = { services: ['consent'] };

/**
 * Who may call each RPC of the data processing service (read by its gRPC server; an RPC without a
 * row does not start).
 */
export const dataprocessingAccess: AccessTable<dataprocessingv1.DataProcessingServiceServer> = {
  createGroup: platform,
  getGroup: platform,
  listGroups: platform,
  updateGroup: platform,
  deleteGroup: platform,
  createSpec: platform,
  getSpec: platform,
  listSpecs: platform,
  updateSpec: platform,
  deleteSpec: platform,
  listSpecVersions: platform,
  getSpecVersion: platform,
  createText: platform,
  listTexts: platform,
  getText: platform,
  updateText: platform,
  deleteText: platform,
  getSpecForConsent: { ...platform, services: ['gateway', 'consent'] },
  resolveTarget: { ...platform, services: ['gateway', 'consent'] },
  listPendingRenewals: consentService,
  ackRenewal: consentService,
  getGroupPolicy: platform,
  getConsentRequest: platform,
  getDashboard: platform,
};
