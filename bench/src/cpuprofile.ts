/**
 * Reads V8 CPU profiles (`node --cpu-prof`, `.cpuprofile` JSON) for `npm run bench:profile`:
 * the samples that fall in a time window, charged to the code responsible for them — a package
 * (`express`, `@grpc/grpc-js`, …) or an Accord file (`gateway/middleware/auth`) — with V8 built-ins
 * and Node internals charged to the nearest JavaScript caller that is neither, since what calls
 * `JSON.stringify` or a socket write is what a change could remove.
 */

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  /** Microseconds, on the machine's monotonic clock (CLOCK_MONOTONIC, as process.hrtime). */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Who a frame's code belongs to, or undefined for V8 built-ins and Node internals. */
export function ownerOf(url: string, functionName: string): string | undefined {
  if (!url) return ['(garbage collector)', '(program)', '(idle)'].includes(functionName) ? functionName : undefined;
  if (url.startsWith('node:')) return undefined;
  const path = url.replace(/^file:\/\//, '');
  const mod = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (mod) return mod[1]!;
  const accord = /\/(services|clients)\/([^/]+)\/dist\/(.+?)\.js$/.exec(path) ?? /\/(proto)\/(dist)\/(.+?)\.js$/.exec(path);
  if (accord) return accord[1] === 'proto' ? `proto/${accord[3]}` : `${accord[2]}/${accord[3]}`;
  return path;
}

export interface Charged {
  /** Sampled milliseconds in the window, idle excluded. */
  totalMs: number;
  /** Milliseconds by owner, largest first. */
  byOwner: Array<[string, number]>;
  /** Milliseconds by Accord function (self, built-ins it calls included), largest first. */
  byAccordFunction: Array<[string, number]>;
  /** Milliseconds by function of any owner (self, built-ins it calls included), largest first. */
  byFunction: Array<[string, number]>;
}

/** The profile's samples between `fromUs` and `toUs` (monotonic µs), charged to their owners. */
export function charge(profile: CpuProfile, fromUs: number, toUs: number): Charged {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // the owner and Accord function each node's samples are charged to, memoised per node
  const memo = new Map<number, { owner: string; fn: string; accord: boolean }>();
  const resolve = (id: number): { owner: string; fn: string; accord: boolean } => {
    const hit = memo.get(id);
    if (hit) return hit;
    let out: { owner: string; fn: string; accord: boolean } | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      const owner = ownerOf(f.url, f.functionName);
      if (owner) {
        const accord = /^(gateway|consent|oauth|webhook|dataprocessing|common|verify|proto)\//.test(owner);
        out = { owner, fn: f.url ? `${owner} ${f.functionName || '(anonymous)'}:${f.lineNumber + 1}` : owner, accord };
        break;
      }
    }
    const internal = `node internals (${byId.get(id)!.callFrame.functionName || 'anonymous'})`;
    out ??= { owner: internal, fn: internal, accord: false };
    memo.set(id, out);
    return out;
  };
  const owners = new Map<string, number>();
  const fns = new Map<string, number>();
  const all = new Map<string, number>();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (t < fromUs || t > toUs) continue;
    // a sample stands for the time until the next one
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(profile.samples[i]!);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const { owner, fn, accord } = resolve(node.id);
    owners.set(owner, (owners.get(owner) ?? 0) + ms);
    all.set(fn, (all.get(fn) ?? 0) + ms);
    if (accord) fns.set(fn, (fns.get(fn) ?? 0) + ms);
    total += ms;
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { totalMs: total, byOwner: sorted(owners), byAccordFunction: sorted(fns), byFunction: sorted(all) };
}
