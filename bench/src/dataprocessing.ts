import { measure, type BenchResult } from './measure';

interface BenchOpts {
  baseUrl: string;
  token: string;
  apiKey: string;
  durationSec: number;
}

async function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<{ id: string }> {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${url} failed: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

/**
 * Data processing API through the gateway: creating a specification (with two texts; each
 * create writes its version-1 record and the specification document), reading one (document
 * plus newest-version check), and rendering a group of 20 specifications as a policy section.
 */
export async function benchDataprocessing(opts: BenchOpts): Promise<BenchResult[]> {
  const headers = { authorization: `Bearer ${opts.token}`, 'x-api-key': opts.apiKey, 'content-type': 'application/json' };
  const base = `${opts.baseUrl}/dataprocessing/v0`;
  const group = await postJson(`${base}/dpgroups`, headers, { name: 'Bench', description: 'Benchmark group', purpose: 'benchmark' });
  const specBody = {
    data: 'e-mail',
    purpose: 'newsletter',
    action: 'collect',
    legalBasis: 'CONSENT',
    texts: [
      { value: 'We send you our newsletter.', language: 'en' },
      { value: 'Wir senden Ihnen unseren Newsletter.', language: 'de' },
    ],
  };
  const readGroup = await postJson(`${base}/dpgroups`, headers, { name: 'Bench read', description: 'Benchmark reads' });
  const specs = [];
  for (let i = 0; i < 20; i++) specs.push(await postJson(`${base}/dpgroups/${readGroup.id}/specs`, headers, { ...specBody, data: `data-${i}` }));

  return [
    await measure('dataprocessing: create spec (POST /dpgroups/{id}/specs)', {
      url: `${base}/dpgroups/${group.id}/specs`,
      method: 'POST',
      headers,
      body: JSON.stringify(specBody),
      durationSec: opts.durationSec,
    }),
    await measure('dataprocessing: read spec (GET /dpspecs/{id})', { url: `${base}/dpspecs/${specs[0]!.id}`, headers, durationSec: opts.durationSec }),
    await measure('dataprocessing: policy of 20 specs (GET /dpgroups/{id}/policy)', {
      url: `${base}/dpgroups/${readGroup.id}/policy?lang=de`,
      headers,
      durationSec: opts.durationSec,
    }),
  ];
}
