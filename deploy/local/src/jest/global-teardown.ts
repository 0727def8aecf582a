import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const state = globalThis.__accordInfra;
  if (!state) return;
  globalThis.__accordInfra = undefined;
  await state.infra.stop();
  rmSync(state.dataDir, { recursive: true, force: true });
}
