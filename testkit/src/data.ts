// Factories for test data: a valid value of each kind, with what the test cares about on top.
import type { consentv1, oauthv1 } from '@accord/proto';

/** A consent event as a client sends it (gRPC ConsentInput). */
export const consentInput = (over: Partial<consentv1.ConsentInput> = {}): consentv1.ConsentInput => ({
  subject: 'user-1',
  issuer: 'https://shop.example',
  target: 'https://shop.example/privacy',
  ...over,
});

/** A stored consent event as the JSON `data` of a `consent` event (NATS and webhooks). */
export const consentData = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  subject: 'user-1',
  issuer: 'https://shop.example',
  target: 'https://shop.example/privacy',
  scope: 'default',
  action: true,
  token: 'ABC123',
  createdAt: new Date().toISOString(),
  ...over,
});

/** Fields of a data processing group. */
export const groupFields = (over: { name?: string; description?: string; purpose?: string } = {}) => ({
  name: 'Newsletter',
  description: 'Our news',
  purpose: 'marketing',
  ...over,
});

/** Fields of a data processing specification. */
export const specFields = (over: Record<string, unknown> = {}) => ({ data: 'e-mail', purpose: 'send news', action: 'collect', ...over });

/** Fields of a specification's text. */
export const textFields = (over: { value?: string; language?: string; type?: string } = {}) => ({ value: 'We send news', language: 'en', ...over });

/** An oauth Bootstrap request: an account with one application and its scopes. */
export const bootstrapRequest = (over: Partial<oauthv1.BootstrapRequest> = {}): oauthv1.BootstrapRequest => ({
  accountName: 'acme',
  appName: 'web',
  scopes: ['consent', 'dataprocessing', 'webhooks'],
  ...over,
});

/** An IssueToken request with every field empty but the given ones. */
export const tokenRequest = (over: Partial<oauthv1.IssueTokenRequest>): oauthv1.IssueTokenRequest => ({
  grantType: '',
  clientId: '',
  clientSecret: '',
  scope: '',
  refreshToken: '',
  basicAuth: false,
  ...over,
});
