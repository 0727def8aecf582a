import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../src/cli';
import { verifyBundle, type Bundle } from '../src';
import { Log, signer, type Signer } from './fixture';

let key: Signer;
let other: Signer;
let log: Log;
let jwks: { keys: unknown[] };

beforeAll(async () => {
  key = await signer('k1');
  other = await signer('k-forger');
  log = new Log(11, key);
  jwks = { keys: [key.jwk] };
});

/** The complete, honest bundle for event 6 in the tree of 11 events, its receipt anchored at 11. */
async function honest(): Promise<Bundle> {
  return { receipt: await log.receipt(6, 11), proof: log.proof(6, 11), head: await log.head(11), jwks, event: log.events[6] };
}

const failed = (r: { checks: Array<{ name: string; result: string; detail: string }> }) =>
  r.checks.filter((c) => c.result === 'failed').map((c) => `${c.name}: ${c.detail}`);

describe('offline verification of a receipt, a proof and a signed head', () => {
  it('an honest bundle verifies, event and anchor included', async () => {
    const r = await verifyBundle(await honest());
    expect(failed(r)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.checks.map((c) => `${c.name}:${c.result}`)).toEqual(['tree head:ok', 'receipt:ok', 'inclusion:ok', 'event:ok', 'anchor:ok']);
  });

  it('without the event, the receipt is tied to the leaf by its signed anchor', async () => {
    const { event: _e, ...b } = await honest();
    expect((await verifyBundle(b)).ok).toBe(true);
  });

  it('a receipt anchored in an older tree verifies against a newer head with a consistency proof, and not without one', async () => {
    const b: Bundle = { receipt: await log.receipt(6, 7), proof: log.proof(6, 11), head: await log.head(11), jwks };
    expect(failed(await verifyBundle(b))).toEqual([expect.stringContaining('pass a consistency proof (--consistency) from 7 to 11')]);
    const withProof = await verifyBundle({ ...b, consistency: log.consistency(7, 11) });
    expect(failed(withProof)).toEqual([]);
    expect(withProof.ok).toBe(true);
    // a consistency proof between other sizes does not count
    expect((await verifyBundle({ ...b, consistency: log.consistency(8, 11) })).ok).toBe(false);
  });

  it('a receipt without an anchor needs the event', async () => {
    const b: Bundle = { receipt: await log.receipt(6), proof: log.proof(6, 11), head: await log.head(11), jwks };
    expect(failed(await verifyBundle(b))).toEqual([expect.stringContaining('carries no log anchor')]);
    expect((await verifyBundle({ ...b, event: log.events[6] })).ok).toBe(true);
  });

  it('rejects a tampered event: a field the receipt names, or one only the leaf hash covers', async () => {
    const b = await honest();
    const flipped = await verifyBundle({ ...b, event: { ...log.events[6], action: !log.events[6]!.action } });
    expect(failed(flipped)).toEqual([expect.stringContaining('differs from the receipt in: action')]);
    const moved = await verifyBundle({ ...b, event: { ...log.events[6], appId: 'app-2' } });
    expect(failed(moved)).toEqual([expect.stringContaining('is not the proven leaf')]);
    const extra = await verifyBundle({ ...b, event: { ...log.events[6], note: 'added later' } });
    expect(extra.ok).toBe(false);
  });

  it('rejects a tampered audit path, a proof of another leaf and a proof for another tree size', async () => {
    const b = await honest();
    const p = log.proof(6, 11);
    const bad = Buffer.from(p.auditPath[1]!, 'base64');
    bad[5]! ^= 1;
    expect(failed(await verifyBundle({ ...b, proof: { ...p, auditPath: [p.auditPath[0], bad.toString('base64'), ...p.auditPath.slice(2)] } }))).toEqual([
      expect.stringContaining('does not lead from leaf 6'),
    ]);
    expect((await verifyBundle({ ...b, proof: { ...p, auditPath: p.auditPath.slice(1) } })).ok).toBe(false);
    expect((await verifyBundle({ ...b, proof: log.proof(5, 11) })).ok).toBe(false);
    expect(failed(await verifyBundle({ ...b, proof: log.proof(6, 10) }))).toEqual([expect.stringContaining('the proof is for a tree of 10 events')]);
    expect((await verifyBundle({ ...b, proof: { ...p, leafHash: 'not base64' } })).ok).toBe(false);
  });

  it('rejects a forged head: another key, an edited root or size, a receipt passed off as a head', async () => {
    const b = await honest();
    const head = await log.head(11);
    const cases: Array<[string, unknown]> = [
      ['signed by a key that is not published', await log.head(11, { key: other })],
      ['root edited after signing', { ...head, rootHash: log.root(10) }],
      ['size edited after signing', { ...head, treeSize: 12 }],
      ['time edited after signing', { ...head, timestamp: '2030-01-01T00:00:00.000Z' }],
      ['a JWT of the same key (receipt type)', await log.head(11, { typ: 'JWT' })],
      ['no signature', { ...head, signature: '' }],
    ];
    for (const [what, forged] of cases) {
      const r = await verifyBundle({ ...b, head: forged });
      expect({ what, ok: r.ok, head: r.checks.find((c) => c.name === 'tree head')?.result }).toEqual({ what, ok: false, head: 'failed' });
    }
    // a fork: the operator signs a head whose tree rewrote leaf 3; the receipt's anchor exposes it
    const forkedLog = new Log(11, key);
    forkedLog.leaves[3] = Buffer.alloc(32, 7);
    const forked = await verifyBundle({ receipt: await log.receipt(6, 11), proof: forkedLog.proof(6, 11), head: await forkedLog.head(11), jwks });
    expect(failed(forked)).toEqual([expect.stringContaining('the log forked')]);
  });

  it('rejects a receipt signed by an unpublished key', async () => {
    const r = await verifyBundle({ ...(await honest()), receipt: await log.receipt(6, 11, other) });
    expect(failed(r)[0]).toMatch(/^receipt: the receipt does not verify/);
  });
});

describe('the accord-verify command', () => {
  let dir: string;
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), read: (p: string) => readFileSync(p, 'utf8') } };
  };
  const write = (name: string, v: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, typeof v === 'string' ? v : JSON.stringify(v));
    return p;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'accord-verify-'));
    const b = await honest();
    write('r.jwt', `${b.receipt}\n`);
    write('p.json', b.proof);
    write('h.json', b.head);
    write('jwks.json', jwks);
    write('e.json', b.event);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const args = (over: Record<string, string> = {}) =>
    Object.entries({ receipt: 'r.jwt', proof: 'p.json', head: 'h.json', jwks: 'jwks.json', event: 'e.json', ...over }).flatMap(([k, v]) =>
      v ? [`--${k}`, join(dir, v)] : [],
    );

  it('exits 0 and says verified when everything checks out', async () => {
    const o = io();
    expect(await main(args(), o.io)).toBe(0);
    expect(o.out.at(-1)).toBe('verified');
  });

  it('exits 1 for a tampered event, a tampered path and a forged head', async () => {
    write('e-bad.json', { ...log.events[6], scope: 'marketing' });
    const p = log.proof(6, 11);
    write('p-bad.json', { ...p, auditPath: [...p.auditPath].reverse() });
    write('h-bad.json', await log.head(11, { key: other }));
    for (const over of [{ event: 'e-bad.json' }, { proof: 'p-bad.json' }, { head: 'h-bad.json' }] as Array<Record<string, string>>) {
      const o = io();
      expect({ over, code: await main(args(over), o.io) }).toEqual({ over, code: 1 });
      expect(o.out.at(-1)).toBe('NOT verified');
    }
  });

  it('exits 2 with the usage for a missing option, an unreadable file or a file that is not JSON', async () => {
    write('broken.json', '{');
    for (const argv of [args({ proof: '' }), args({ head: 'missing.json' }), args({ head: 'broken.json' }), ['--nope']]) {
      const o = io();
      expect(await main(argv, o.io)).toBe(2);
      expect(o.err.join('\n')).toMatch(/missing|cannot read|not JSON|unknown argument/);
    }
  });

  it('--json prints every check', async () => {
    const o = io();
    expect(await main([...args(), '--json'], o.io)).toBe(0);
    expect(JSON.parse(o.out.join('\n'))).toMatchObject({
      ok: true,
      checks: expect.arrayContaining([expect.objectContaining({ name: 'inclusion', result: 'ok' })]),
    });
  });

  it('the installed bin runs with node and returns the exit code', () => {
    const pkg = resolve(__dirname, '..');
    // the bin runs the compiled package, as npx would; compile it (incremental, fast when fresh)
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', pkg], { stdio: 'pipe', timeout: 120_000 });
    const ok = spawnSync(process.execPath, [join(pkg, 'bin/accord-verify.js'), ...args()], { encoding: 'utf8', timeout: 30_000 });
    expect({ status: ok.status, last: ok.stdout.trim().split('\n').at(-1) }).toEqual({ status: 0, last: 'verified' });
    const bad = spawnSync(process.execPath, [join(pkg, 'bin/accord-verify.js'), ...args({ event: 'e-bad.json' })], { encoding: 'utf8', timeout: 30_000 });
    expect(bad.status).toBe(1);
  });
});
