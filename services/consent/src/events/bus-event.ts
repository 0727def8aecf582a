import { headers as natsHeaders, type JetStreamClient, type MsgHdrs } from 'nats';
import { CONSENT_BUS_CONTENT_TYPE, encodeConsentBusEvent, type consenteventsv1 } from '@accord/proto';
import { toProto } from '../grpc/handlers';
import type { ConsentEvent } from '../domain/consent';

export type ConsentBusEvent = consenteventsv1.ConsentBusEvent;

/** The bus event of a stored consent event (type `consent`, id = the event's id, at its createdAt). */
export function consentBusEvent(ev: ConsentEvent): ConsentBusEvent {
  return { id: ev.id, type: 'consent', accountId: ev.accountId, appId: ev.appId, occurredAt: ev.createdAt, event: toProto(ev) };
}

/**
 * Publishes a bus event: binary ConsentBusEvent, `Content-Type` naming it, `Nats-Msg-Id` = its
 * id (JetStream de-duplication), plus any trace headers given.
 */
export async function publishBusEvent(
  js: Pick<JetStreamClient, 'publish'>,
  subject: string,
  m: ConsentBusEvent,
  opts: { timeout: number; trace?: Record<string, string> },
): Promise<void> {
  const headers: MsgHdrs = natsHeaders();
  headers.set('Content-Type', CONSENT_BUS_CONTENT_TYPE);
  for (const [k, v] of Object.entries(opts.trace ?? {})) headers.set(k, v);
  await js.publish(subject, encodeConsentBusEvent(m), { msgID: m.id, timeout: opts.timeout, headers });
}
