import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { experimental, type ChannelCredentials, type ServerCredentials } from '@grpc/grpc-js';
import { z } from 'zod';
import { SERVICE_IDENTITIES, type ServiceIdentity } from './service-identity';

/**
 * The URI that names a service identity in its certificate: `spiffe://accord/<identity>`
 * (`spiffe://accord/consent`), as a URI SAN (or, without URI SANs, as the subject CN). Accord's CA
 * issues one per service; a peer's certificate naming another URI, or none, proves no service identity.
 */
export const SERVICE_URI_PREFIX = 'spiffe://accord/';

/** Mutual TLS between Accord's services (all three files, or none: plaintext, as under `npm start`). */
export const grpcTlsEnv = {
  /** PEM: the CA bundle that signs Accord's service certificates (peers are verified against it). */
  ACCORD_GRPC_TLS_CA_FILE: z.string().min(1).optional(),
  /** PEM: this service's certificate (chain), with its identity as a URI SAN `spiffe://accord/<service>`. */
  ACCORD_GRPC_TLS_CERT_FILE: z.string().min(1).optional(),
  /** PEM: the certificate's private key. */
  ACCORD_GRPC_TLS_KEY_FILE: z.string().min(1).optional(),
  /** How often the three files are read again (ms): a renewed certificate is used from then on, without a restart. */
  ACCORD_GRPC_TLS_REFRESH_MS: z.coerce.number().int().min(100).default(30_000),
};

export interface GrpcTlsConfig {
  ACCORD_GRPC_TLS_CA_FILE?: string;
  ACCORD_GRPC_TLS_CERT_FILE?: string;
  ACCORD_GRPC_TLS_KEY_FILE?: string;
  ACCORD_GRPC_TLS_REFRESH_MS?: number;
}

/** The credentials of one process's gRPC hops: its servers and its clients, from the same files. */
export interface GrpcTls {
  /**
   * TLS with this certificate; a client certificate is asked for, verified against the CA and its
   * identity read, but not required: platform callers use server-side TLS and their bearer token.
   */
  server: ServerCredentials;
  /** TLS verifying the server against the CA (and its host name), presenting this service's certificate. */
  channel: ChannelCredentials;
  /** The identity in this process's own certificate. */
  identity(): ServiceIdentity | undefined;
  /** Stops reading the files. */
  close(): void;
}

const identityIn = (uri: string | undefined): ServiceIdentity | undefined => {
  if (!uri?.startsWith(SERVICE_URI_PREFIX)) return undefined;
  const name = uri.slice(SERVICE_URI_PREFIX.length);
  return (SERVICE_IDENTITIES as readonly string[]).includes(name) ? (name as ServiceIdentity) : undefined;
};

/**
 * The service identity a certificate names: its URI SAN `spiffe://accord/<service>`, or, in a
 * certificate without URI SANs (Helm's genSignedCert cannot write them), its subject CN of the
 * same form. undefined: none.
 */
export function identityOfCertificate(cert: { subjectaltname?: string; subject?: { CN?: string | string[] } } | undefined): ServiceIdentity | undefined {
  const uris = (cert?.subjectaltname?.split(/,\s*/) ?? []).filter((san) => san.startsWith('URI:')).map((san) => san.slice(4));
  if (uris.length) {
    for (const uri of uris) {
      const id = identityIn(uri);
      if (id) return id;
    }
    return undefined;
  }
  const cn = cert?.subject?.CN;
  return identityIn(Array.isArray(cn) ? cn[0] : cn);
}

/** The same for a PEM certificate. */
function identityOfPem(pem: Buffer): ServiceIdentity | undefined {
  const x = new X509Certificate(pem);
  const cn = /^CN=(.*)$/m.exec(x.subject)?.[1];
  return identityOfCertificate({ subjectaltname: x.subjectAltName, subject: { CN: cn } });
}

interface Material {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

/** Reads the three files; throws, naming the file, when one is unreadable or the key is not the certificate's. */
function readMaterial(files: { ca: string; cert: string; key: string }): Material {
  const read = (what: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(`${what} ${file}: ${(err as Error).message}`);
    }
  };
  const m = { ca: read('CA file', files.ca), cert: read('certificate file', files.cert), key: read('key file', files.key) };
  let matches: boolean;
  try {
    matches = new X509Certificate(m.cert).checkPrivateKey(createPrivateKey(m.key));
    new X509Certificate(m.ca);
  } catch (err) {
    throw new Error(`unreadable certificate, key or CA (${files.cert}, ${files.key}, ${files.ca}): ${(err as Error).message}`);
  }
  if (!matches) throw new Error(`the key ${files.key} is not the key of the certificate ${files.cert}`);
  return m;
}

/**
 * The CA and this service's certificate and key, from their files, read again every `refreshMs`.
 * A new set is published only when it changed and is whole (the key matches the certificate), so
 * a rotation caught between two files is taken at the next read rather than breaking handshakes.
 * (grpc-js' own FileWatcherCertificateProvider publishes whatever it read, a half-written pair
 * included.) New connections use the new certificate; established ones continue.
 */
class ReloadingCertificates implements experimental.CertificateProvider {
  private current: Material;
  private readonly caListeners = new Set<experimental.CaCertificateUpdateListener>();
  private readonly identityListeners = new Set<experimental.IdentityCertificateUpdateListener>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly files: { ca: string; cert: string; key: string },
    refreshMs: number,
    private readonly onError: (err: Error) => void,
  ) {
    this.current = readMaterial(files);
    this.timer = setInterval(() => this.reload(), refreshMs);
    this.timer.unref();
  }

  get certificate(): Buffer {
    return this.current.cert;
  }

  reload(): void {
    let next: Material;
    try {
      next = readMaterial(this.files);
    } catch (err) {
      this.onError(err as Error);
      return;
    }
    const caChanged = !next.ca.equals(this.current.ca);
    const identityChanged = !next.cert.equals(this.current.cert) || !next.key.equals(this.current.key);
    this.current = next;
    if (caChanged) for (const l of this.caListeners) l({ caCertificate: next.ca });
    if (identityChanged) for (const l of this.identityListeners) l({ certificate: next.cert, privateKey: next.key });
  }

  addCaCertificateListener(listener: experimental.CaCertificateUpdateListener): void {
    this.caListeners.add(listener);
    process.nextTick(listener, { caCertificate: this.current.ca });
  }
  removeCaCertificateListener(listener: experimental.CaCertificateUpdateListener): void {
    this.caListeners.delete(listener);
  }
  addIdentityCertificateListener(listener: experimental.IdentityCertificateUpdateListener): void {
    this.identityListeners.add(listener);
    process.nextTick(listener, { certificate: this.current.cert, privateKey: this.current.key });
  }
  removeIdentityCertificateListener(listener: experimental.IdentityCertificateUpdateListener): void {
    this.identityListeners.delete(listener);
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/**
 * A process's gRPC TLS from its config, or undefined when none of the three files is set
 * (plaintext). Some but not all of them, an unreadable file or a key that is not the
 * certificate's: an error naming it, at start.
 */
export function grpcTls(config: GrpcTlsConfig, onReloadError: (err: Error) => void = () => {}): GrpcTls | undefined {
  const { ACCORD_GRPC_TLS_CA_FILE: ca, ACCORD_GRPC_TLS_CERT_FILE: cert, ACCORD_GRPC_TLS_KEY_FILE: key } = config;
  if (!ca && !cert && !key) return undefined;
  if (!ca || !cert || !key) {
    const missing = Object.entries({ ACCORD_GRPC_TLS_CA_FILE: ca, ACCORD_GRPC_TLS_CERT_FILE: cert, ACCORD_GRPC_TLS_KEY_FILE: key })
      .filter(([, v]) => !v)
      .map(([k]) => k);
    throw new Error(`gRPC TLS needs all three files: ${missing.join(', ')} not set`);
  }
  const provider = new ReloadingCertificates({ ca, cert, key }, config.ACCORD_GRPC_TLS_REFRESH_MS ?? 30_000, onReloadError);
  return {
    // The same provider for both roles (grpc-js 1.14 swaps the two arguments of the server's constructor).
    server: experimental.createCertificateProviderServerCredentials(provider, provider, false),
    channel: experimental.createCertificateProviderChannelCredentials(provider, provider),
    identity: () => identityOfPem(provider.certificate),
    close: () => provider.close(),
  };
}
