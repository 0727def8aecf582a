import { CurrentStateRepository } from './current-repository';
import { ErasureRepository } from './erasure-repository';
import { EventRepository } from './event-repository';
import { ExpiryRepository } from './expiry-repository';
import { LogQueueRepository } from './log-queue-repository';
import type { Models } from './models';
import { OutboxRepository } from './outbox-repository';
import { RenewalRepository } from './renewal-repository';
import { StatisticsRepository } from './statistics-repository';

/**
 * The consent store, MongoDB-first, one small repository per concern. A batch of events (one
 * call, or several coalesced by group commit) costs three round trips whatever its size, each of
 * which MongoDB applies atomically per document, so the store is exact with any number of
 * writers and replicas, with no transaction:
 *
 * 1. `events.insertEvents`: one insertMany (the events are their own outbox records);
 * 2. `current.applyCurrent`: one bulkWrite of `$max` upserts, one per state;
 * 3. `statistics.count`: one bulkWrite of `$inc` upserts for the statistics.
 */
export interface ConsentRepositories {
  events: EventRepository;
  current: CurrentStateRepository;
  statistics: StatisticsRepository;
  outbox: OutboxRepository;
  expiry: ExpiryRepository;
  renewals: RenewalRepository;
  logQueue: LogQueueRepository;
  erasure: ErasureRepository;
}

/** @param opts.publishLeaseMs how long a new event belongs to its writer's publish before any relay may claim it */
export function consentRepositories(m: Models, opts: { publishLeaseMs: number }): ConsentRepositories {
  return {
    events: new EventRepository(m, opts.publishLeaseMs),
    current: new CurrentStateRepository(m),
    statistics: new StatisticsRepository(m),
    outbox: new OutboxRepository(m),
    expiry: new ExpiryRepository(m),
    renewals: new RenewalRepository(m),
    logQueue: new LogQueueRepository(m),
    erasure: new ErasureRepository(m),
  };
}
