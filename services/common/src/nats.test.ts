import { natsTlsOptions } from './nats';

describe('TLS to NATS (natsEnv)', () => {
  test('none set: no TLS options (plaintext, unless the URL says tls://)', () => {
    expect(natsTlsOptions({})).toBeUndefined();
  });

  test('a CA alone: server-side TLS; with a client certificate and key: mutual', () => {
    expect(natsTlsOptions({ NATS_TLS_CA_FILE: '/t/ca.crt' })).toEqual({ caFile: '/t/ca.crt' });
    expect(natsTlsOptions({ NATS_TLS_CA_FILE: '/t/ca.crt', NATS_TLS_CERT_FILE: '/t/tls.crt', NATS_TLS_KEY_FILE: '/t/tls.key' })).toEqual({
      caFile: '/t/ca.crt',
      certFile: '/t/tls.crt',
      keyFile: '/t/tls.key',
    });
  });

  test('a certificate without its key is a configuration error', () => {
    expect(() => natsTlsOptions({ NATS_TLS_CERT_FILE: '/t/tls.crt' })).toThrow('NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE go together');
  });
});
