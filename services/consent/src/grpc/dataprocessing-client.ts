import { status } from '@grpc/grpc-js';
import { createClient, isServiceError, UnavailableError, type Logger, type GrpcTls, type PromiseClient, type ServiceTokenSigner } from '@accord/common';
import { contracts, dataprocessingv1 } from '@accord/proto';
import type { RenewalSignals, SpecSource } from '../app/ports';
import type { SpecDetails } from '../domain/receipt';

/** Most specifications remembered at once by `current` (the memory is cleared when full). */
const CACHE_MAX = 10_000;

export function dataprocessingSpecSource(address: string, logger: Logger, cacheMs: number, identity?: ServiceTokenSigner, tls?: GrpcTls): SpecSource {
  const client: PromiseClient<typeof dataprocessingv1.DataProcessingServiceService> = createClient(dataprocessingv1.DataProcessingServiceService, address, {
    timeoutMs: 2_000,
    retries: 1,
    identity,
    tls,
  });
  const fetchSpec = async (accountId: string, specId: string, as: { version?: number; at?: Date } = {}): Promise<SpecDetails | undefined> => {
    try {
      return specDetails(await client.getSpecForConsent({ accountId, specId, ...as }));
    } catch (err) {
      if (isServiceError(err) && err.code === status.NOT_FOUND) return undefined;
      throw err;
    }
  };
  const unavailable = (err: unknown) => new UnavailableError(`data processing service unavailable: ${(err as Error).message}`);
  const cache = new Map<string, { at: number; spec: SpecDetails | undefined }>();
  return {
    async lookup(accountId, specId, version) {
      try {
        return await fetchSpec(accountId, specId, version !== undefined ? { version } : {});
      } catch (err) {
        logger.warn({ err: (err as Error).message, specId }, 'receipt: data processing service unavailable; receipt built from the event alone');
        return undefined;
      }
    },
    async current(accountId, specId, fresh = false) {
      const key = `${accountId}\n${specId}`;
      const hit = cache.get(key);
      if (!fresh && hit && Date.now() - hit.at < cacheMs) return hit.spec;
      let spec: SpecDetails | undefined;
      try {
        spec = await fetchSpec(accountId, specId);
      } catch (err) {
        throw unavailable(err);
      }
      if (cache.size >= CACHE_MAX) cache.clear();
      if (cacheMs > 0) cache.set(key, { at: Date.now(), spec });
      return spec;
    },
    async asOf(accountId, specId, at) {
      try {
        return await fetchSpec(accountId, specId, { at });
      } catch (err) {
        throw unavailable(err);
      }
    },
    close: () => client.close(),
  };
}

/** The data processing service's record of material changes to announce (ListPendingRenewals / AckRenewal). */
export function dataprocessingRenewalSignals(address: string, identity?: ServiceTokenSigner, tls?: GrpcTls): RenewalSignals & { close(): void } {
  const client: PromiseClient<typeof dataprocessingv1.DataProcessingServiceService> = createClient(dataprocessingv1.DataProcessingServiceService, address, {
    timeoutMs: 5_000,
    retries: 1,
    identity,
    tls,
  });
  return {
    async pending(limit) {
      return (await client.listPendingRenewals({ limit })).renewals;
    },
    async ack(specId, version) {
      await client.ackRenewal({ specId, version });
    },
    close: () => client.close(),
  };
}

function specDetails(s: dataprocessingv1.SpecForConsent): SpecDetails {
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
  if (s.consentValidityDays !== undefined) out.consentValidityDays = s.consentValidityDays;
  // 0: a data processing service that predates it
  if (s.reconsentSince) out.reconsentSince = s.reconsentSince;
  // the write path's cached lookup carries them: no call of its own (the decisions API reads them)
  if (s.regimes.size) out.regimes = contracts.regimes.normalizeRegimes(Object.fromEntries(s.regimes)).regimes;
  return out;
}
