import { measure, type BenchResult } from './measure';

/** Token endpoint throughput: client_credentials with the secret in a JSON body. */
export async function benchOAuth(opts: { baseUrl: string; clientId: string; clientSecret: string; durationSec: number }): Promise<BenchResult[]> {
  return [
    await measure('POST /oauth/v0/token (client_credentials)', {
      url: `${opts.baseUrl}/oauth/v0/token`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: opts.clientId, client_secret: opts.clientSecret, scope: 'consent' }),
      durationSec: opts.durationSec,
      sideBySide: true,
    }),
  ];
}
