/** Proof helpers of the e2e tests of the consent log (log.test.ts, erasure.test.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main as accordVerify } from '../clients/verify/src/cli';
import { sleep } from '@accord/testkit';
import type { HttpResult } from './harness';

/** GET the proof until the event is sequenced (409 + Retry-After before), at most 20 s. */
export async function proofOf(as: (method: string, path: string) => Promise<HttpResult>, id: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await as('GET', `/consent/v0/consents/${id}/proof`);
    if (res.status === 200) return res.body;
    expect(res.status).toBe(409);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    if (Date.now() > deadline) throw new Error('the event was not sequenced within 20 s');
    await sleep(200);
  }
}

/** Writes a file for the offline verifier into `dir`; answers its path. */
export const writeIn = (dir: string) => (name: string, v: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof v === 'string' ? v : JSON.stringify(v));
  return p;
};

/** Runs the offline verifier (`npx @accord/verify`) on files: its exit code and output. */
export async function verifyFiles(files: Record<string, string>): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await accordVerify(
    Object.entries(files).flatMap(([k, v]) => [`--${k}`, v]),
    { out: (l) => out.push(l), err: (l) => out.push(l), read: (p) => readFileSync(p, 'utf8') },
  );
  return { code, out: out.join('\n') };
}
