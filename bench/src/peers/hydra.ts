/**
 * The token peer of `npm run bench`: Ory Hydra, built from the Go module proxy into the tools
 * folder by bench/scripts/install-hydra.sh (`provision.js bench` runs it), started on loopback
 * with its in-memory SQLite store and JWT access tokens; one client_credentials client made
 * through its admin API. Nothing leaves the machine (`--sqa-opt-out`: no usage reports).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, spawnLogged, stopChild, toolsDir } from '@accord/local-stack';

/** The binary and the version it was built at, or why there is none. */
export function hydraBinary(env: NodeJS.ProcessEnv = process.env): { bin: string; version: string } | { missing: string } {
  const bin = join(toolsDir(env), 'bin', 'hydra');
  if (!existsSync(bin)) return { missing: 'Ory Hydra is not built (`node deploy/local/scripts/provision.js bench` builds it with Go into the tools folder)' };
  let version = 'unknown version';
  try {
    version = readFileSync(join(toolsDir(env), 'bin', '.hydra.version'), 'utf8')
      .trim()
      .replace(/^.*@/, '');
  } catch {
    /* built by hand */
  }
  return { bin, version };
}

export interface RunningHydra {
  /** The token endpoint. */
  tokenUrl: string;
  /** A form body for client_credentials with the secret in the body (client_secret_post). */
  tokenBody: string;
  /** What differs from Hydra's defaults, for the table. */
  settings: string;
  stop(): Promise<void>;
}

export async function startHydra(bin: string, version: string, log?: (line: string) => void): Promise<RunningHydra> {
  const [pub, admin] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    DSN: 'memory',
    STRATEGIES_ACCESS_TOKEN: 'jwt',
    SECRETS_SYSTEM: randomBytes(24).toString('hex'),
    URLS_SELF_ISSUER: `http://127.0.0.1:${pub}`,
    SERVE_PUBLIC_HOST: '127.0.0.1',
    SERVE_PUBLIC_PORT: String(pub),
    SERVE_ADMIN_HOST: '127.0.0.1',
    SERVE_ADMIN_PORT: String(admin),
    LOG_LEVEL: 'error',
    SQA_OPT_OUT: 'true',
  };
  const tail: string[] = [];
  const child = spawnLogged(bin, ['serve', 'all', '--dev', '--sqa-opt-out'], {
    env,
    onOutput: (l) => {
      tail.push(l);
      if (tail.length > 20) tail.shift();
      log?.(l);
    },
  });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`hydra exited with code ${child.exitCode}:\n${tail.join('\n')}`);
      const ok = await fetch(`http://127.0.0.1:${admin}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`hydra was not ready within 60 s:\n${tail.join('\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const secret = randomBytes(24).toString('hex');
    const res = await fetch(`http://127.0.0.1:${admin}/admin/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: 'bench',
        client_secret: secret,
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_post',
        scope: 'consent',
      }),
    });
    if (res.status !== 201) throw new Error(`hydra: creating the client answered HTTP ${res.status}: ${await res.text()}`);
    const tokenUrl = `http://127.0.0.1:${pub}/oauth2/token`;
    const tokenBody = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'bench', client_secret: secret, scope: 'consent' }).toString();
    // the first grant makes the JWT signing key (RS256): outside the measured run
    const first = await fetch(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: tokenBody });
    const jwt = ((await first.json()) as { access_token?: string }).access_token ?? '';
    if (first.status !== 200 || jwt.split('.').length !== 3) throw new Error(`hydra: the first token grant answered HTTP ${first.status}, not a JWT`);
    const alg = (JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { alg?: string }).alg;
    return {
      tokenUrl,
      tokenBody,
      settings: `Ory Hydra ${version} (sqlite build), DSN=memory, STRATEGIES_ACCESS_TOKEN=jwt (${alg ?? '?'} key Hydra made), client_secret_post, default secret hashing`,
      stop: () => stopChild(child),
    };
  } catch (err) {
    await stopChild(child);
    throw err;
  }
}
