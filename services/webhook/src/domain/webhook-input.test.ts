import { invalidFieldsOf } from '@accord/testkit';
import { AddressPolicy } from './address-policy';
import { validateWebhookFields } from './webhook-input';

const closed = new AddressPolicy();

describe('webhook input validation', () => {
  it('accepts a public https URL, known events and ordinary headers', () => {
    expect(
      invalidFieldsOf(() =>
        validateWebhookFields(
          { url: 'https://hooks.example.com/x?y=1', events: ['consent'], headers: { Authorization: 'Bearer abc', 'X-Tenant': 't 1' } },
          closed,
        ),
      ),
    ).toEqual([]);
  });

  it.each(['not a url', '/relative', 'ftp://example.com/', 'javascript:alert(1)', 'https://user:pw@example.com/'])('refuses the URL %s', (url) => {
    expect(invalidFieldsOf(() => validateWebhookFields({ url }, closed))).toEqual(['/url']);
  });

  it.each([
    'http://127.0.0.1:8080/',
    'http://[::1]/',
    'http://10.0.0.5/',
    'http://169.254.169.254/latest/meta-data',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost:3000/',
  ])('refuses %s under the closed (production) policy', (url) => {
    expect(invalidFieldsOf(() => validateWebhookFields({ url }, closed))).toEqual(['/url']);
  });

  it('accepts loopback when the allow-list opens it', () => {
    expect(invalidFieldsOf(() => validateWebhookFields({ url: 'http://127.0.0.1:9/' }, new AddressPolicy(['127.0.0.0/8'])))).toEqual([]);
  });

  it('requires a non-empty list of known, subscribable event types, naming the bad entry', () => {
    expect(invalidFieldsOf(() => validateWebhookFields({ events: [] }, closed))).toEqual(['/events']);
    expect(invalidFieldsOf(() => validateWebhookFields({ events: ['consent', 'consnt'] }, closed))).toEqual(['/events/1']);
    expect(invalidFieldsOf(() => validateWebhookFields({ events: ['ping'] }, closed))).toEqual(['/events/0']);
  });

  it.each(['Content-Type', 'host', 'Transfer-Encoding', 'Connection', 'webhook-signature', 'Webhook-Id', 'webhook-anything', 'Content-Length'])(
    'refuses overriding %s',
    (name) => {
      expect(invalidFieldsOf(() => validateWebhookFields({ headers: { [name]: 'x' } }, closed))).toEqual([`/headers/${name}`]);
    },
  );

  it('refuses invalid header names and values, naming the header', () => {
    expect(invalidFieldsOf(() => validateWebhookFields({ headers: { 'bad name': 'x' } }, closed))).toEqual(['/headers/bad name']);
    expect(invalidFieldsOf(() => validateWebhookFields({ headers: { 'X-A': 'line\r\nInjected: 1' } }, closed))).toEqual(['/headers/X-A']);
    expect(invalidFieldsOf(() => validateWebhookFields({ headers: { 'X-A': 'a'.repeat(2000) } }, closed))).toEqual(['/headers/X-A']);
    expect(invalidFieldsOf(() => validateWebhookFields({ headers: { 'X-A': '1', 'x-a': '2' } }, closed))).toEqual(['/headers/x-a']);
  });

  it('bounds the number of headers', () => {
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']));
    expect(invalidFieldsOf(() => validateWebhookFields({ headers: many }, closed))).toEqual(['/headers']);
  });

  it('lists every problem at once', () => {
    expect(invalidFieldsOf(() => validateWebhookFields({ url: 'nope', events: [], headers: { Host: 'x' } }, closed))).toEqual([
      '/url',
      '/events',
      '/headers/Host',
    ]);
  });
});
