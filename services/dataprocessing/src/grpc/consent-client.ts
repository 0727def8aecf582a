import { status } from '@grpc/grpc-js';
import { createClient, isServiceError, UnavailableError, type GrpcTls, type PromiseClient, type ServiceTokenSigner } from '@accord/common';
import { consentv1 } from '@accord/proto';
import type { ConsentStates } from '../app/ports';
import type { CurrentEvent } from '../domain/views';

/** The consent service's current states over gRPC; unreachable or slow means UNAVAILABLE. */
export class GrpcConsentStates implements ConsentStates {
  private readonly client: PromiseClient<typeof consentv1.ConsentServiceService>;

  constructor(address: string, timeoutMs: number, identity?: ServiceTokenSigner, tls?: GrpcTls) {
    this.client = createClient(consentv1.ConsentServiceService, address, { timeoutMs, retries: 1, identity, tls });
  }

  async currentStates(req: { accountId: string; subject: string; issuer: string; targets: string[] }): Promise<CurrentEvent[]> {
    try {
      const res = await this.client.getCurrentStates(req);
      return res.events.map((e) => ({
        id: e.id,
        target: e.target,
        scope: e.scope,
        action: e.action,
        createdAt: e.createdAt,
        targetVersion: e.targetVersion,
        renewalRequired: e.renewalRequired,
        gpc: e.gpc,
      }));
    } catch (err) {
      if (isServiceError(err) && (err.code === status.UNAVAILABLE || err.code === status.DEADLINE_EXCEEDED || err.code === status.UNIMPLEMENTED))
        throw new UnavailableError('the consent service is unavailable; consent states cannot be shown');
      throw err;
    }
  }

  close(): void {
    this.client.close();
  }
}
