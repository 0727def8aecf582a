import { ensureEventStream, inSpan, sleep, SpanKind, streamName, type EventEnvelope, type Logger } from '@accord/common';
import { consentBusEventEnvelope, decodeConsentBusEvent, isConsentBusContentType } from '@accord/proto';
import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg, type MsgHdrs, type NatsConnection } from 'nats';

export function consumerName(prefix: string): string {
  return `${prefix}-webhook`;
}

/**
 * Reads an event message; null when it is not a usable event. A message whose `Content-Type`
 * header names ConsentBusEvent is decoded with the generated type and its `data` rendered as the
 * REST API renders the event (consentBusEventEnvelope). Any other message is a JSON envelope: tree
 * heads (third-party witnesses read those on NATS too) and consent events published by releases
 * before the binary form, still in the stream after an upgrade; their `data` is delivered as it
 * was published.
 */
export function parseEvent(data: Uint8Array, headers?: Pick<MsgHdrs, 'get'>): EventEnvelope | null {
  if (isConsentBusContentType(headers?.get('Content-Type'))) {
    try {
      const m = decodeConsentBusEvent(data);
      if (!m.id || !m.type || !m.accountId || !m.appId || !m.event) return null;
      return consentBusEventEnvelope(m);
    } catch {
      return null;
    }
  }
  return parseEnvelope(data);
}

/** Parses a JSON envelope; null when it is not a usable one. */
export function parseEnvelope(data: Uint8Array): EventEnvelope | null {
  try {
    const e = JSON.parse(new TextDecoder().decode(data)) as Partial<EventEnvelope>;
    if (typeof e.id !== 'string' || !e.id || typeof e.type !== 'string' || typeof e.accountId !== 'string' || typeof e.appId !== 'string') return null;
    return e as EventEnvelope;
  } catch {
    return null;
  }
}

/**
 * Acknowledges messages together, once per turn of the event loop. nats.js writes to its socket
 * what was queued in one run of microtasks; each message's handling ends in its own, so an
 * acknowledgement sent as each ended cost a socket write (and a read in nats-server) per event.
 * Those of one turn now go in one write. `flush` sends what waits at once (on stop).
 */
export function ackPerTurn(schedule: (fn: () => void) => void = setImmediate): { ack(m: Pick<JsMsg, 'ack'>): void; flush(): void } {
  let waiting: Array<Pick<JsMsg, 'ack'>> = [];
  const flush = () => {
    const now = waiting;
    waiting = [];
    for (const m of now) m.ack();
  };
  return {
    ack(m) {
      if (waiting.push(m) === 1) schedule(flush);
    },
    flush,
  };
}

/**
 * The durable pull consumer `<prefix>-webhook` on `<prefix>.events.>`, shared by every replica
 * (JetStream hands each message to one of them). A message is acknowledged only after
 * `handle` resolved (its deliveries are stored), with the others of its turn (ackPerTurn); a
 * failure or a crash before that makes JetStream redeliver it after `ackWaitMs`, and handling is
 * idempotent.
 */
export async function startEventConsumer(opts: {
  nc: NatsConnection;
  prefix: string;
  logger: Logger;
  handle: (event: EventEnvelope) => Promise<void>;
  ackWaitMs?: number;
  parallel?: number;
}): Promise<{ stop(): Promise<void> }> {
  const { nc, prefix, logger } = opts;
  const jsm = await nc.jetstreamManager();
  await ensureEventStream(jsm, prefix);
  const stream = streamName(prefix);
  const durable = consumerName(prefix);
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: `${prefix}.events.>`,
    ack_wait: (opts.ackWaitMs ?? 30_000) * 1e6,
    max_ack_pending: 1_000,
  };
  try {
    await jsm.consumers.info(stream, durable);
  } catch {
    // Idempotent when another replica added the same config in between.
    await jsm.consumers.add(stream, config);
  }
  const js = nc.jetstream();
  const parallel = opts.parallel ?? 16;
  let stopping = false;
  let messages: ConsumerMessages | undefined;
  const inFlight = new Set<Promise<void>>();
  const acks = ackPerTurn();

  const handleOne = async (m: JsMsg) => {
    const event = parseEvent(m.data, m.headers);
    if (!event) {
      logger.error({ subject: m.subject, seq: m.seq }, 'unreadable event message dropped');
      m.term();
      return;
    }
    try {
      // The trace context the consent service put in the message headers, when traced.
      const traceparent = m.headers?.get('traceparent');
      await inSpan(
        `${event.type} process`,
        {
          kind: SpanKind.CONSUMER,
          parent: traceparent ? { traceparent, tracestate: m.headers?.get('tracestate') } : undefined,
          attributes: { 'messaging.system': 'nats', 'messaging.destination.name': m.subject },
        },
        () => opts.handle(event),
      );
      acks.ack(m);
    } catch (err) {
      logger.warn({ err: (err as Error).message, eventId: event.id }, 'event not handled; JetStream will redeliver it');
      m.nak(2_000);
    }
  };

  const run = async () => {
    while (!stopping) {
      try {
        const consumer = await js.consumers.get(stream, durable);
        messages = await consumer.consume({ max_messages: 256 });
        for await (const m of messages) {
          const p = handleOne(m).finally(() => inFlight.delete(p));
          inFlight.add(p);
          if (inFlight.size >= parallel) await Promise.race(inFlight);
        }
      } catch (err) {
        if (!stopping) logger.warn({ err: (err as Error).message }, 'event consumer interrupted; resubscribing');
      }
      if (!stopping) await sleep(1_000);
    }
  };
  const running = run();
  logger.info({ stream, consumer: durable }, 'consuming events');

  return {
    async stop() {
      stopping = true;
      messages?.stop();
      await running;
      await Promise.allSettled([...inFlight]);
      acks.flush();
    },
  };
}
