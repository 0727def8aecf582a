/**
 * BENCH_STRESS=1: the side-by-side jobs run once more with `stress-ng --cpu 2` beside the bench
 * (two workers spinning on the machine's CPUs, as CI may have beside its tests), so that each
 * system's figure on a loaded machine comes from the same command as its figure without.
 * stress-ng's processes are the bench's children but never counted in its CPU figures (cpu.ts).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { spawnLogged, stopChild } from '@accord/local-stack';

export const STRESS_COMMAND = ['stress-ng', '--cpu', '2', '--quiet'] as const;

export const stressWanted = (env: NodeJS.ProcessEnv = process.env): boolean => env.BENCH_STRESS === '1';

/** Why BENCH_STRESS=1 cannot run here, or undefined when stress-ng answers. */
export function stressMissing(): string | undefined {
  const r = spawnSync(STRESS_COMMAND[0], ['--version'], { encoding: 'utf8' });
  return r.status === 0
    ? undefined
    : 'BENCH_STRESS=1 needs stress-ng (`node deploy/local/scripts/provision.js bench` installs it as root: apt-get install stress-ng)';
}

/** Runs `fn` with stress-ng running beside it (started a second before, stopped after). */
export async function withStress<T>(fn: () => Promise<T>): Promise<T> {
  let child: ChildProcess | undefined;
  const [cmd, ...args] = STRESS_COMMAND;
  try {
    child = spawnLogged(cmd, args, { onOutput: (l) => process.env.BENCH_LOG && console.log(`stress-ng | ${l}`) });
    const failed = new Promise<never>((_, reject) =>
      child!.once('error', (err) => reject(new Error(`stress-ng could not start (${err.message}): BENCH_STRESS=1 needs it`))),
    );
    // its workers take the CPUs before the run starts
    await Promise.race([failed, new Promise((r) => setTimeout(r, 1_000))]);
    return await Promise.race([failed, fn()]);
  } finally {
    if (child) await stopChild(child);
  }
}
