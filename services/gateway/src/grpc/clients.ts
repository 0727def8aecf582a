import { createClient, grpcTls, healthProbe, serviceSigner, type GrpcTls, type HealthProbe, type PromiseClient } from '@accord/common';
import { consentactivityv1, consentimportv1, consentv1, dataprocessingv1, limitsv1, oauthconsolev1, oauthv1, webhookv1 } from '@accord/proto';
import type { Config } from '../config';

/**
 * One typed promise client per downstream service. Every call carries a deadline and the
 * request id; route handlers use these and never touch grpc-js.
 */
export interface Clients {
  oauth: PromiseClient<typeof oauthv1.OAuthServiceService>;
  consent: PromiseClient<typeof consentv1.ConsentServiceService>;
  dataprocessing: PromiseClient<typeof dataprocessingv1.DataProcessingServiceService>;
  webhook: PromiseClient<typeof webhookv1.WebhookServiceService>;
  /** Account limits and daily event counts (served by the oauth process). */
  limits: PromiseClient<typeof limitsv1.LimitsServiceService>;
  /** The console's RPCs of the oauth service (members, sessions, account-scoped credentials). */
  oauthConsole: PromiseClient<typeof oauthconsolev1.OAuthConsoleServiceService>;
  /** Daily activity of the consent service (the console's charts). */
  consentActivity: PromiseClient<typeof consentactivityv1.ConsentActivityServiceService>;
  /** Imports of the consent service (POST /consent/v0/imports). */
  consentImport: PromiseClient<typeof consentimportv1.ConsentImportServiceService>;
  /** Readiness of each downstream service (/readyz), one long-lived channel each. */
  health: Record<Downstream, HealthProbe>;
  /** Mutual TLS of every channel above (undefined: plaintext). */
  tls?: GrpcTls;
}

type Downstream = 'oauth' | 'consent' | 'dataprocessing' | 'webhook';

/** Downstream addresses, by service, for readiness checks. */
export function downstreamAddresses(config: Config): Record<Downstream, string> {
  return {
    oauth: config.ACCORD_OAUTH_ADDR,
    consent: config.ACCORD_CONSENT_ADDR,
    dataprocessing: config.ACCORD_DATAPROCESSING_ADDR,
    webhook: config.ACCORD_WEBHOOK_ADDR,
  };
}

export function createClients(config: Config, onTlsReloadError?: (err: Error) => void): Clients {
  const tls = grpcTls(config, onTlsReloadError);
  if (tls && tls.identity() !== 'gateway') {
    tls.close();
    throw new Error(
      `gRPC TLS: the certificate ${config.ACCORD_GRPC_TLS_CERT_FILE} names ${tls.identity() ?? 'no service identity'}, not spiffe://accord/gateway`,
    );
  }
  // every call proves the gateway's service identity (its token, and with TLS its certificate):
  // the services trust it to name the account that the request authenticated
  const opts = { timeoutMs: config.ACCORD_GRPC_TIMEOUT_MS, identity: serviceSigner('gateway', config.ACCORD_SERVICE_KEY), tls };
  return {
    oauth: createClient(oauthv1.OAuthServiceService, config.ACCORD_OAUTH_ADDR, opts),
    consent: createClient(consentv1.ConsentServiceService, config.ACCORD_CONSENT_ADDR, opts),
    dataprocessing: createClient(dataprocessingv1.DataProcessingServiceService, config.ACCORD_DATAPROCESSING_ADDR, opts),
    webhook: createClient(webhookv1.WebhookServiceService, config.ACCORD_WEBHOOK_ADDR, opts),
    limits: createClient(limitsv1.LimitsServiceService, config.ACCORD_OAUTH_ADDR, opts),
    oauthConsole: createClient(oauthconsolev1.OAuthConsoleServiceService, config.ACCORD_OAUTH_ADDR, opts),
    consentActivity: createClient(consentactivityv1.ConsentActivityServiceService, config.ACCORD_CONSENT_ADDR, opts),
    consentImport: createClient(consentimportv1.ConsentImportServiceService, config.ACCORD_CONSENT_ADDR, opts),
    health: Object.fromEntries(Object.entries(downstreamAddresses(config)).map(([name, addr]) => [name, healthProbe(addr, { tls })])) as Record<
      Downstream,
      HealthProbe
    >,
    tls,
  };
}

export function closeClients(clients: Clients): void {
  const { health, tls, ...rpc } = clients;
  for (const c of Object.values(rpc)) c.close();
  for (const p of Object.values(health)) p.close();
  tls?.close();
}
