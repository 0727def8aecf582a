import { connect, headers as natsHeaders, type NatsConnection } from 'nats';
import { eventSubject, type EventEnvelope } from '@accord/common';

export const connectTestNats = (url: string): Promise<NatsConnection> => connect({ servers: url });

/** Publishes an event on the JetStream stream the way the consent service does (Nats-Msg-Id = its id). */
export async function publishEvent(
  nc: NatsConnection,
  prefix: string,
  e: Omit<EventEnvelope, 'occurredAt'> & { occurredAt?: string },
  msgId?: string,
): Promise<void> {
  const envelope: EventEnvelope = { occurredAt: new Date().toISOString(), ...e };
  const h = natsHeaders();
  h.set('Nats-Msg-Id', msgId ?? envelope.id);
  await nc
    .jetstream()
    .publish(eventSubject(prefix, envelope.type, envelope.accountId, envelope.appId), new TextEncoder().encode(JSON.stringify(envelope)), { headers: h });
}
