import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../src/cli';
import { exportLineLeaf, inMemory, leafHash, linkLeaf, verifyBundle, type Bundle } from '../src';
import { b64, Log, signer, type Signer } from './fixture';

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

describe('link events: no receipt, the link itself is tied to the proven leaf', () => {
  /** Links as the API answers them (one imported), and their lines of the export with links=true. */
  const links = [
    {
      id: '0192f3a1b2c3d4e5f6a7b8e0',
      appId: 'app-1',
      issuer: 'https://shop.example',
      identity: 'dev-7f3a9c',
      subject: 'user-1',
      createdAt: '2026-11-23T07:00:20.000Z',
    },
    {
      id: '0192f3a1b2c3d4e5f6a7b8e1',
      appId: 'app-1',
      issuer: 'https://shop.example',
      identity: 'dev-7f3a9c',
      subject: null,
      createdAt: '2026-11-23T07:00:21.000Z',
    },
    {
      id: '0170f3a1b2c3d4e5f6a7b8e2',
      appId: 'app-2',
      issuer: 'https://shop.example',
      identity: 'phone-1',
      subject: 'user-2',
      createdAt: '2020-02-01T00:00:00.000Z',
      importedAt: '2026-11-23T07:00:22.000Z',
    },
  ];
  /** A log of the fixture's 11 events, then the three links: leaves 11, 12, 13. */
  let leaves: Buffer[];
  const proof = (i: number) => ({ leafIndex: i, treeSize: leaves.length, leafHash: b64(leaves[i]!), auditPath: inMemory.inclusionProof(leaves, i).map(b64) });
  let head: unknown;
  beforeAll(async () => {
    leaves = [...log.leaves, ...links.map((l) => leafHash(linkLeaf(l)))];
    const big = new Log(0, key);
    Object.assign(big, { leaves });
    head = await big.head(leaves.length);
  });

  it('the leaf of a link is the RFC 8785 JSON of its fields with type subject.linked, importedAt only when imported', () => {
    expect(linkLeaf(links[0]!).toString()).toBe(
      '{"appId":"app-1","createdAt":"2026-11-23T07:00:20.000Z","id":"0192f3a1b2c3d4e5f6a7b8e0","identity":"dev-7f3a9c","issuer":"https://shop.example","subject":"user-1","type":"subject.linked"}',
    );
    expect(linkLeaf(links[2]!).toString()).toContain('"importedAt":"2026-11-23T07:00:22.000Z"');
    // the export's line of a link gives the same leaf; an event line gives its event leaf without what reads add
    expect(exportLineLeaf({ type: 'subject.linked', ...links[1]! }).equals(linkLeaf(links[1]!))).toBe(true);
    expect(leafHash(exportLineLeaf({ ...log.events[4]!, expired: true })).equals(log.leaves[4]!)).toBe(true);
    expect(() => exportLineLeaf({ ...log.events[4]!, erasedAt: '2026-11-24T00:00:00.000Z' })).toThrow(/erased/);
    expect(() => exportLineLeaf({ type: 'other', ...links[0]! })).toThrow(TypeError);
    expect(() => linkLeaf({ ...links[0]!, subject: undefined })).toThrow(TypeError);
  });

  it('each link verifies with its proof and the signed head, without a receipt', async () => {
    for (const [i, link] of links.entries()) {
      const r = await verifyBundle({ link: { type: 'subject.linked', ...link }, proof: proof(11 + i), head, jwks });
      expect(failed(r)).toEqual([]);
      expect(r.checks.map((c) => `${c.name}:${c.result}`)).toEqual(['tree head:ok', 'receipt:skipped', 'inclusion:ok', 'link:ok']);
      expect(r.ok).toBe(true);
    }
  });

  it('rejects a tampered link (moved to another subject, passed off as not imported, another id) and another leaf’s proof', async () => {
    const { importedAt: _i, ...asIfLive } = links[2]!;
    for (const [link, at] of [
      [{ ...links[0]!, subject: 'user-2' }, 11],
      [asIfLive, 13],
      [{ ...links[1]!, id: links[0]!.id }, 12],
      [links[0]!, 12],
    ] as const) {
      const r = await verifyBundle({ link, proof: proof(at), head, jwks });
      expect(r.ok).toBe(false);
      expect(failed(r)).toEqual([expect.stringMatching(/^link: the link's leaf hash .* is not the proven leaf/)]);
    }
    // neither receipt nor link: nothing ties the proof to anything
    expect(failed(await verifyBundle({ proof: proof(11), head, jwks }))).toEqual([
      'receipt: no receipt given (a link event is verified with the link instead)',
    ]);
  });

  it('accord-verify --link checks a link file, and refuses --link with a receipt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'accord-verify-link-'));
    try {
      const w = (name: string, v: unknown) => {
        writeFileSync(join(dir, name), JSON.stringify(v));
        return join(dir, name);
      };
      const argv = ['--link', w('l.json', links[0]), '--proof', w('p.json', proof(11)), '--head', w('h.json', head), '--jwks', w('jwks.json', jwks)];
      const out: string[] = [];
      const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l), read: (p: string) => readFileSync(p, 'utf8') };
      expect(await main(argv, io)).toBe(0);
      expect(out.at(-1)).toBe('verified');
      expect(await main([...argv.slice(0, 1), w('l-bad.json', { ...links[0], subject: 'user-2' }), ...argv.slice(2)], io)).toBe(1);
      expect(out.at(-1)).toBe('NOT verified');
      expect(await main([...argv, '--receipt', w('r.jwt', 'x')], io)).toBe(2);
      expect(out.at(-1)).toMatch(/usage/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
