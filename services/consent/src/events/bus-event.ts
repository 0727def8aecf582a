import { headers as natsHeaders, type MsgHdrs } from 'nats';
import { CONSENT_BUS_CONTENT_TYPE, consentBusEventEnvelope, encodeConsentBusEvent, type consenteventsv1 } from '@accord/proto';
import { eventMessage } from '../domain/wire';
import type { ConsentEvent } from '../domain/consent';

export type ConsentBusEvent = consenteventsv1.ConsentBusEvent;

/**
 * How bus events are written (ACCORD_CONSENT_EVENT_ENCODING): `protobuf`, or `json`, the JSON
 * envelope of earlier releases (data already rendered as REST renders it), which webhook replicas
 * of those releases can still read; for the first step of a rolling upgrade (docs/consent.md).
 */
export type BusEncoding = 'protobuf' | 'json';

/** The bus event of a stored consent event (type `consent`, id = the event's id, at its createdAt). */
export function consentBusEvent(ev: ConsentEvent): ConsentBusEvent {
  return { id: ev.id, type: 'consent', accountId: ev.accountId, appId: ev.appId, occurredAt: ev.createdAt, event: eventMessage(ev) };
}

/** What publishes to JetStream: a `JetStreamClient`, or an AckBatchPublisher (events/ack-batches.ts). */
export interface BusPublisher {
  publish(subject: string, data: Uint8Array, opts: { msgID: string; timeout: number; headers: MsgHdrs }): Promise<unknown>;
}

/**
 * Publishes a bus event: binary ConsentBusEvent with a `Content-Type` naming it (or the JSON
 * envelope without one, see BusEncoding), `Nats-Msg-Id` = its id (JetStream de-duplication),
 * plus any trace headers given.
 */
export async function publishBusEvent(
  js: BusPublisher,
  subject: string,
  m: ConsentBusEvent,
  opts: { timeout: number; trace?: Record<string, string>; encoding?: BusEncoding },
): Promise<void> {
  const json = opts.encoding === 'json';
  const headers: MsgHdrs = natsHeaders();
  if (!json) headers.set('Content-Type', CONSENT_BUS_CONTENT_TYPE);
  for (const [k, v] of Object.entries(opts.trace ?? {})) headers.set(k, v);
  const body = json ? Buffer.from(JSON.stringify(consentBusEventEnvelope(m))) : encodeConsentBusEvent(m);
  await js.publish(subject, body, { msgID: m.id, timeout: opts.timeout, headers });
}
