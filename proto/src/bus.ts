// Hand-written beside the generated code: how a consent event travels on the event stream
// (binary ConsentBusEvent, marked by a Content-Type header) and what a webhook receives as its
// `data`, shared by the consent service (publisher) and the webhook service (consumer).
import { ConsentBusEvent } from './gen/accord/consent/v1/events';
import { consentEventJson } from './rest';

/** The NATS `Content-Type` header of a binary ConsentBusEvent; messages without it are JSON envelopes. */
export const CONSENT_BUS_CONTENT_TYPE = 'application/protobuf; proto=accord.consent.v1.ConsentBusEvent';

/** Whether a message's `Content-Type` header names a binary ConsentBusEvent. */
export function isConsentBusContentType(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/protobuf' && /proto=accord\.consent\.v1\.ConsentBusEvent\b/.test(contentType);
}

export function encodeConsentBusEvent(m: ConsentBusEvent): Uint8Array {
  return ConsentBusEvent.encode(m).finish();
}

/** Decodes a binary ConsentBusEvent; throws on bytes that are not one. */
export function decodeConsentBusEvent(bytes: Uint8Array): ConsentBusEvent {
  return ConsentBusEvent.decode(bytes);
}

/**
 * The webhook `data` of a bus event: the event exactly as the REST API answers it
 * (consentEventJson, with `expired` / `renewalRequired` when set), plus `reconsentSince` for
 * `consent.renewal_required`.
 */
export function consentBusEventData(m: ConsentBusEvent): Record<string, unknown> {
  if (!m.event) throw new TypeError(`bus event ${m.id} carries no consent event`);
  return { ...consentEventJson(m.event), ...(m.reconsentSince !== undefined ? { reconsentSince: m.reconsentSince } : {}) };
}

/**
 * The envelope the webhook service works with (and that JSON messages of earlier releases
 * carried): the bus event's header fields, `occurredAt` as ISO 8601, and its webhook `data`.
 */
export function consentBusEventEnvelope(m: ConsentBusEvent): {
  id: string;
  type: string;
  accountId: string;
  appId: string;
  occurredAt: string;
  data: Record<string, unknown>;
} {
  return {
    id: m.id,
    type: m.type,
    accountId: m.accountId,
    appId: m.appId,
    occurredAt: (m.occurredAt ?? new Date(0)).toISOString(),
    data: consentBusEventData(m),
  };
}
