import { status } from '@grpc/grpc-js';
import { createClient, isServiceError, type Logger, type PromiseClient } from '@accord/common';
import { dataprocessingv1 } from '@accord/proto';
import type { SpecDetails } from '../domain/receipt';

export type SpecLookup = (accountId: string, specId: string) => Promise<SpecDetails | undefined>;

/**
 * Looks up a specification for a receipt. Graceful: NOT_FOUND (unknown or another account's
 * spec), an unreachable service or any other failure gives `undefined`, and the receipt is then
 * built from the event alone.
 */
export function dataprocessingSpecLookup(address: string, logger: Logger): { lookup: SpecLookup; close(): void } {
  const client: PromiseClient<typeof dataprocessingv1.DataProcessingServiceService> = createClient(dataprocessingv1.DataProcessingServiceService, address, {
    timeoutMs: 2_000,
    retries: 1,
  });
  return {
    async lookup(accountId, specId) {
      try {
        const s = await client.getSpecForConsent({ accountId, specId });
        const out: SpecDetails = {
          id: s.id,
          version: s.version,
          data: s.data,
          purpose: s.purpose,
          action: s.action,
          sensitive: s.sensitive,
          legalBasis: s.legalBasis,
          externalHref: s.externalHref,
          location: s.location,
          groupName: s.groupName,
          groupPurpose: s.groupPurpose,
          archived: s.archived,
        };
        if (s.duration !== undefined) out.duration = s.duration;
        return out;
      } catch (err) {
        if (isServiceError(err) && err.code === status.NOT_FOUND) return undefined;
        logger.warn({ err: (err as Error).message, specId }, 'receipt: data processing service unavailable; receipt built from the event alone');
        return undefined;
      }
    },
    close: () => client.close(),
  };
}
