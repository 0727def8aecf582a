import type { LogAnchor } from '@accord/verify';
import type { ConsentEvent } from '../domain/consent';
import type { SpecDetails } from '../domain/receipt';
import type { CurrentStateRepository } from '../store/current-repository';
import type { ErasureRepository } from '../store/erasure-repository';
import type { EventRepository } from '../store/event-repository';
import type { StatisticsRepository } from '../store/statistics-repository';

/** What the consent use cases need of the store (store/repositories.ts provides it). */
export interface ConsentStore {
  events: Pick<EventRepository, 'insertEvents' | 'findById' | 'findByToken' | 'search' | 'exportPage' | 'exportTotal'>;
  current: Pick<CurrentStateRepository, 'applyCurrent' | 'currentStates'>;
  statistics: Pick<StatisticsRepository, 'count' | 'read'>;
  erasure: Pick<ErasureRepository, 'eraseSubject' | 'recordErasure' | 'erasures'>;
}

/** Where stored events go once their current states are applied: the outbox relay publishes them (events/outbox-relay.ts). */
export interface EventPublisher {
  publishStored(events: ConsentEvent[]): void;
}

/** A specification (current, or as of `version`); undefined when unknown in the account. */
export type SpecLookup = (accountId: string, specId: string, version?: number) => Promise<SpecDetails | undefined>;

export interface SpecSource {
  /** For receipts. Graceful: any failure gives `undefined` (the receipt is built from the event alone). */
  lookup: SpecLookup;
  /**
   * For new consents: the current specification, remembered for `cacheMs` (a burst of consents to
   * one specification costs one call). Throws UnavailableError when the service cannot answer.
   */
  current(accountId: string, specId: string, fresh?: boolean): Promise<SpecDetails | undefined>;
  close(): void;
}

/**
 * What the write path and receipts need from the consent log (docs/consent-log.md). The write
 * itself only marks its event documents as waiting for a leaf (EventRepository.insertEvents);
 * the sequencer runs behind it.
 */
export interface ConsentLogPort {
  /** After a batch is answered: sequence soon (never awaited). */
  nudge(): void;
  /** The event's position and the latest head, once sequenced. */
  anchor(accountId: string, eventId: string): Promise<LogAnchor | undefined>;
}
