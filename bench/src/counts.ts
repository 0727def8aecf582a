import type { CommandCounter } from './mongo-proxy';

export interface CommandCountRow {
  kind: string;
  /** Median commands between sending a request and its answer (what the caller waits for). */
  awaited: number;
  /** Median commands in the 300 ms after the answer (publication, webhook fan-out). */
  after: number;
  /** The commands of the median request, by `<command> <collection>`. */
  detail: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The MongoDB commands one request of a kind causes across the whole stack: `runs` requests one
 * after another, each counted in its own window (until its answer, then 300 ms more for work it
 * triggers), the median reported. Background work (idle polls) rarely falls in a window and
 * never in most of them, so the median is exact and repeatable.
 */
export async function countCommands(counter: CommandCounter, kind: string, send: (i: number) => Promise<Response>, runs = 9): Promise<CommandCountRow> {
  const awaited: number[] = [];
  const after: number[] = [];
  const details: string[] = [];
  for (let i = 0; i < runs; i++) {
    await sleep(300);
    await counter.take();
    const res = await send(i);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${kind}: HTTP ${res.status}`);
    const a = await counter.take();
    await sleep(300);
    const b = await counter.take();
    awaited.push(a.workTotal);
    after.push(b.workTotal);
    details.push([...a.work.entries()].map(([k, n]) => `${k}${n > 1 ? ` ×${n}` : ''}`).join(', '));
  }
  const m = median(awaited);
  return { kind, awaited: m, after: median(after), detail: details[awaited.indexOf(m)] ?? '' };
}

/** Work and monitoring commands per second of a stack left alone for `seconds`. */
export async function idleRate(counter: CommandCounter, seconds: number): Promise<{ work: number; monitoring: number; detail: string }> {
  await sleep(5_000); // let the last work settle and the pollers back off
  await counter.take();
  await sleep(seconds * 1000);
  const c = await counter.take();
  return {
    work: c.workTotal / seconds,
    monitoring: c.monitoring / seconds,
    detail: [...c.work.entries()].map(([k, n]) => `${k} ×${n}`).join(', '),
  };
}

export function printCounts(rows: CommandCountRow[]): void {
  const w = Math.max(...rows.map((r) => r.kind.length), 4);
  console.log(`${'MongoDB commands per request'.padEnd(w)}  awaited  after  commands before the answer`);
  for (const r of rows) console.log(`${r.kind.padEnd(w)}  ${String(r.awaited).padStart(7)}  ${String(r.after).padStart(5)}  ${r.detail}`);
}
