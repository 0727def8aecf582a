// Generated ts-proto code (src/gen) exposed per proto package, so equal message names in
// different packages never collide.
export * as commonv1 from './gen/accord/common/v1/common';
export * as oauthv1 from './gen/accord/oauth/v1/oauth';
export * as limitsv1 from './gen/accord/oauth/v1/limits';
export * as consentv1 from './gen/accord/consent/v1/consent';
export * as dataprocessingv1 from './gen/accord/dataprocessing/v1/dataprocessing';
export * as webhookv1 from './gen/accord/webhook/v1/webhook';
export * as oauthconsolev1 from './gen/accord/oauth/v1/console';
export * as consentactivityv1 from './gen/accord/consent/v1/activity';
export * as consentimportv1 from './gen/accord/consent/v1/import';
export { consentEventJson, exportLines, subjectLinkJson } from './rest';
export * as consenteventsv1 from './gen/accord/consent/v1/events';
export * as consentlinksv1 from './gen/accord/consent/v1/links';
export {
  CONSENT_BUS_CONTENT_TYPE,
  consentBusEventData,
  consentBusEventEnvelope,
  decodeConsentBusEvent,
  encodeConsentBusEvent,
  isConsentBusContentType,
} from './bus';
export * as contracts from './contracts';
