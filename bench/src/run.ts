/**
 * `npm run bench`: starts the whole stack as processes (as `npm start` does, in a temporary data
 * directory), bootstraps credentials, and measures each API through the gateway with autocannon,
 * beside the peers a user would pick instead (c15t, Ory Hydra) and a bare ceiling app, in the
 * same run. BENCH_DURATION (seconds per endpoint, default 10) and BENCH_ONLY (comma-separated
 * areas: oauth,consent,dataprocessing,webhooks,export,peers) tune a run; BENCH_EXPORT_EVENTS
 * sizes the export; `growth`, only when named, times searches, an export page and statistics at
 * 10,000 to 1,000,000 events in the account (growth.ts); `import`, only when named, imports
 * BENCH_IMPORT_EVENTS (default 1,000,000) through POST /consent/v0/imports (import.ts). The jobs of the side-by-side table also run at half their peak rate (p99
 * there), and with BENCH_STRESS=1 once more with `stress-ng --cpu 2` beside the bench.
 */
import { join } from 'node:path';
import { REPO_ROOT, spawnLogged, stopChild, withDatabase } from '@accord/local-stack';
import type { BenchResult } from './measure';
import { countCommandsDuringRuns, measure, printResults } from './measure';
import { jobs, printSideBySide } from './compare';
import { benchConsent, consentRuns, hundredEvents, oneEvent } from './consent';
import { countCommands, idleRate, printCounts, type CommandCountRow } from './counts';
import { benchDataprocessing } from './dataprocessing';
import { benchExport, printExport, type ExportFigures } from './export';
import { benchGrowth, printGrowth, type GrowthRow } from './growth';
import { benchImport, printImport, type ImportFigures } from './import';
import { metricRows, printMetricRows, scrapeAll } from './metrics';
import { benchOAuth } from './oauth';
import { benchPeers, peerResults, type PeerReport } from './peers';
import { startBenchStack } from './stack';
import { stressMissing, stressWanted } from './stress';
import { benchWebhooks } from './webhooks';

/** The ceiling app (bench/src/ceiling.ts) as a process of its own, like each service. */
async function startCeiling(mongoUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  let onPort!: (port: number) => void;
  const port = new Promise<number>((resolve) => (onPort = resolve));
  const child = spawnLogged(process.execPath, [join(REPO_ROOT, 'bench', 'dist', 'ceiling.js')], {
    env: { ...process.env, MONGO_URL: mongoUrl },
    onOutput: (l) => {
      const m = /ceiling listening on (\d+)/.exec(l);
      if (m) onPort(Number(m[1]));
      else if (process.env.BENCH_LOG) console.log(`ceiling | ${l}`);
    },
  });
  const timeout = setTimeout(() => child.kill(), 30_000);
  const p = await port;
  clearTimeout(timeout);
  return { url: `http://127.0.0.1:${p}`, stop: () => stopChild(child) };
}

/** The names of Accord's runs the side-by-side table compares (consent.ts and oauth.ts name them). */
const RECORD = 'POST /consent/v0/consents (1 event)';
const READ = 'GET /consent/v0/consents/search?current=true&scope=email';
const TOKEN = 'POST /oauth/v0/token (client_credentials)';
const ARRAY = 'POST /consent/v0/consents (array of 100)';

async function main(): Promise<void> {
  const durationSec = Number(process.env.BENCH_DURATION ?? 10);
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const wants = (area: string) => !only || only.includes(area);
  const runs = consentRuns(process.env.BENCH_CONSENT_RUNS); // before anything starts: an unknown name fails at once
  const noStress = stressWanted() ? stressMissing() : undefined;
  if (noStress) throw new Error(noStress);
  if (only?.every((a) => a === 'peers')) {
    // the peers alone: Accord's stack is not started
    const report = await benchPeers(durationSec);
    console.log('');
    printResults(peerResults(report));
    console.log('');
    printSideBySide(jobs({}, {}, report), report);
    return;
  }
  const bench = await startBenchStack();
  const { stack, counter, mongoUrl, creds, tokenBody, token, headers } = bench;
  let ceiling: { url: string; stop(): Promise<void> } | undefined;
  try {
    ceiling = await startCeiling(withDatabase(mongoUrl, 'accord_ceiling'));
    console.log(`stack ready at ${stack.url} (${bench.description}); ceiling at ${ceiling.url}; ${durationSec}s per endpoint`);
    const common = { baseUrl: stack.url, token, apiKey: creds.apiKey, durationSec };

    countCommandsDuringRuns(counter);
    const metricsBefore = await scrapeAll(stack.metricsPorts);
    const results: BenchResult[] = [];
    const ceilings: { record?: BenchResult; read?: BenchResult; token?: BenchResult } = {};
    if (wants('oauth')) {
      const ceil = await measure('ceiling: findOne + ES256 signature', { url: `${ceiling.url}/token`, method: 'POST', durationSec });
      const [tok] = await benchOAuth({ baseUrl: stack.url, clientId: creds.clientId, clientSecret: creds.clientSecret, durationSec });
      results.push(ceil, { ...tok!, ceilingPerSec: ceil.requestsPerSec });
      ceilings.token = ceil;
    }
    if (wants('consent')) {
      const ceil = await measure('ceiling: one insertOne', {
        url: `${ceiling.url}/insert`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: oneEvent('ceiling', 0),
        durationSec,
      });
      const ceilMany = await measure('ceiling: one insertMany of 100', {
        url: `${ceiling.url}/insertMany`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: hundredEvents('ceiling', 0),
        durationSec,
      });
      const ceilRead = await measure('ceiling: one findOne by _id', { url: `${ceiling.url}/current/0`, path: (n) => `/current/${n}`, durationSec });
      results.push(ceil, { ...ceilMany, eventsPerRequest: 100 }, ceilRead);
      Object.assign(ceilings, { record: ceil, read: ceilRead });
      results.push(...(await benchConsent(common, { insert: ceil.requestsPerSec, insertMany: ceilMany.requestsPerSec, read: ceilRead.requestsPerSec }, runs)));
    }
    for (const [area, run] of Object.entries(areaBenches)) if (wants(area)) results.push(...(await run(common)));
    let peers: PeerReport | undefined;
    if (wants('peers')) {
      peers = await benchPeers(durationSec);
      results.push(...peerResults(peers));
    }
    let growth: GrowthRow[] | undefined;
    // a million events: only when asked for by name
    if (only?.includes('growth')) growth = await benchGrowth({ baseUrl: stack.url, headers, mongoUrl, accountId: creds.accountId, appId: creds.appId });
    let imported: ImportFigures | undefined;
    // a million imported events: only when asked for by name
    if (only?.includes('import')) imported = await benchImport({ baseUrl: stack.url, headers, counter, metricsPorts: stack.metricsPorts });
    let exported: ExportFigures | undefined;
    if (wants('export')) exported = await benchExport({ baseUrl: stack.url, headers, mongoUrl, accountId: creds.accountId });
    console.log('');
    printResults(results);
    if (peers) {
      const named = (name: string) => results.find((r) => r.name === name);
      console.log('');
      printSideBySide(jobs({ record: named(RECORD), read: named(READ), token: named(TOKEN) }, ceilings, peers), peers, named(ARRAY));
    }
    if (growth) {
      console.log('');
      printGrowth(growth);
    }
    if (exported) {
      console.log('');
      printExport(exported);
    }
    if (imported) {
      console.log('');
      printImport(imported);
    }
    console.log('');
    printMetricRows(metricRows(metricsBefore, await scrapeAll(stack.metricsPorts)));

    // what each kind of request costs in database commands, counted at the wire
    const rows: CommandCountRow[] = [];
    const run = Date.now().toString(36);
    const post = (body: unknown) => fetch(`${stack.url}/consent/v0/consents`, { method: 'POST', headers, body: JSON.stringify(body) });
    const ev = (i: number, over: object = {}) => ({
      subject: `count-${run}-${i}`,
      issuer: 'https://bench.example',
      target: 'https://bench.example/count',
      ...over,
    });
    rows.push(await countCommands(counter, 'POST one event, new state', (i) => post(ev(i, { action: true }))));
    rows.push(await countCommands(counter, 'POST one event, changing a state', (i) => post(ev(0, { action: i % 2 === 0 }))));
    // signals (issue 26): a TC string (TCF 2.3, CMP 10), a GPP string (uspv1, usnat, usca), gpc and a jurisdiction add no command
    const signals = {
      gpc: true,
      jurisdiction: 'US-CA',
      tcString: 'CQuMEMAQuMEMAAKACAENCWFoALAAAEIAAAYgAAoAAAAA.IAAA.YAAAAAAAAAAA',
      gppString: 'DBABzYA~1YYN~CEAWAAAAAABA.QA~BAQAAABA.QA',
    };
    rows.push(await countCommands(counter, 'POST one event with signals, new state', (i) => post(ev(500 + i, { action: true, ...signals }))));
    rows.push(
      await countCommands(counter, 'POST array of 100, new states', (i) =>
        post(Array.from({ length: 100 }, (_, k) => ev(1000 + i * 100 + k, { action: true }))),
      ),
    );
    const stored = (await (await post(ev(99_999, { action: true }))).json()) as { id: string };
    rows.push(await countCommands(counter, 'GET one event by id', () => fetch(`${stack.url}/consent/v0/consents/${stored.id}`, { headers })));
    const q = new URLSearchParams({ subject: `count-${run}-0`, issuer: 'https://bench.example', target: 'https://bench.example/count' });
    rows.push(await countCommands(counter, 'search', () => fetch(`${stack.url}/consent/v0/consents/search?${q}`, { headers })));
    rows.push(await countCommands(counter, 'search current=true', () => fetch(`${stack.url}/consent/v0/consents/search?${q}&current=true`, { headers })));
    rows.push(
      await countCommands(counter, 'search current=true&scope', () =>
        fetch(`${stack.url}/consent/v0/consents/search?${q}&current=true&scope=default`, { headers }),
      ),
    );
    const items = Array.from({ length: 1000 }, (_, k) => ({
      subject: `count-${run}-${k}`,
      issuer: 'https://bench.example',
      target: 'https://bench.example/count',
    }));
    rows.push(
      await countCommands(counter, 'decisions, 1000 items (now)', () =>
        fetch(`${stack.url}/consent/v0/decisions`, { method: 'POST', headers, body: JSON.stringify({ items }) }),
      ),
    );
    rows.push(
      await countCommands(counter, 'decisions, 1000 items (at: a past moment)', () =>
        fetch(`${stack.url}/consent/v0/decisions`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ at: new Date(Date.now() - 60_000).toISOString(), items }),
        }),
      ),
    );
    rows.push(await countCommands(counter, 'statistics', () => fetch(`${stack.url}/consent/v0/consents/statistics`, { headers })));
    rows.push(
      await countCommands(counter, 'token (client_credentials)', () =>
        fetch(`${stack.url}/oauth/v0/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: tokenBody }),
      ),
    );
    console.log('');
    printCounts(rows);
    const idle = await idleRate(counter, 10);
    console.log(
      `\nidle stack, 10 s after 5 s of quiet: ${idle.work.toFixed(1)} work commands/s (${idle.detail || 'none'}), ${idle.monitoring.toFixed(1)} driver heartbeats/s`,
    );
  } finally {
    await ceiling?.stop();
    await bench.stop();
  }
}

/** Benchmarks of the other APIs, each in its own module. */
const areaBenches: Record<string, (opts: { baseUrl: string; token: string; apiKey: string; durationSec: number }) => Promise<BenchResult[]>> = {
  dataprocessing: benchDataprocessing,
  webhooks: benchWebhooks,
};

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
