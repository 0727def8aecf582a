import type { ConsentStore } from '../../app/ports';
import { memoryCurrentStateStore } from './current';
import { memoryErasureStore } from './erasure';
import { memoryEventStore } from './events';
import { memoryExpiryStore } from './expiry';
import { recorder, StoreFaults } from './faults';
import { memoryImportStore } from './imports';
import { memoryLinkStore } from './links';
import { memoryLogQueueStore } from './log-queue';
import { memoryLogTreeStore } from './log-tree';
import { memoryOutboxStore } from './outbox';
import { memoryRenewalStore } from './renewals';
import { memoryState } from './state';
import { memoryStatisticsStore } from './statistics';

export { StoreFaults } from './faults';

/**
 * The consent store in memory: the port's behaviour without a database, for unit tests of the use
 * cases and jobs (fast, no I/O) and as the reference the contract test holds the MongoDB adapter
 * to (test/store-contract.test.ts). One process, no persistence. One file per sub-store, as in
 * store/mongo/; what they share (events, current states, counters, import keys) is state.ts.
 *
 * Faults are injected per method (`faults.fail`): the next call of that method fails, after
 * doing part of its work for `events.insert` (it stores that many events first, as an ordered
 * insert cut short would).
 */
export interface MemoryConsentStore extends ConsentStore {
  faults: StoreFaults;
  /** Every call made, as `<group>.<method>` (what a use case costs in store calls). */
  calls: string[];
}

export function memoryConsentStore(): MemoryConsentStore {
  const faults = new StoreFaults();
  const calls: string[] = [];
  const call = recorder(faults, calls);
  const mem = memoryState();
  return {
    faults,
    calls,
    events: memoryEventStore(mem, call),
    current: memoryCurrentStateStore(mem, call),
    statistics: memoryStatisticsStore(mem, call),
    outbox: memoryOutboxStore(mem, call),
    expiry: memoryExpiryStore(mem, call),
    renewals: memoryRenewalStore(mem, call),
    logQueue: memoryLogQueueStore(mem, call),
    log: memoryLogTreeStore(call),
    erasure: memoryErasureStore(mem, call),
    imports: memoryImportStore(mem, call),
    links: memoryLinkStore(call),
  };
}
