import type { KeyStore, Logger } from '@accord/common';
import type { Clients } from './grpc/clients';
import type { Config } from './config';

/** What every route module receives. */
export interface GatewayContext {
  config: Config;
  logger: Logger;
  clients: Clients;
  /** Public keys verifying access tokens (from the oauth service). */
  tokenKeys: KeyStore;
  /** Public keys verifying consent receipts (from the consent service). */
  receiptKeys: KeyStore;
  /** Public base URL (ACCORD_BASE_URL without a trailing slash). */
  baseUrl: string;
}
