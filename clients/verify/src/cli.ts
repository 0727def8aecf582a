/**
 * accord-verify: checks a consent receipt, its inclusion proof and a signed tree head offline;
 * or a link event (linked identities, which has no receipt) with its proof and head.
 *
 *   npx @accord/verify --receipt r.jwt --proof p.json --head h.json --jwks jwks.json [--event e.json] [--consistency c.json] [--json]
 *   npx @accord/verify --link l.json --proof p.json --head h.json --jwks jwks.json [--json]
 *
 * Exit code 0 only when every check passes; 1 when a check fails; 2 for a usage or file error.
 */
import { readFileSync } from 'node:fs';
import { verifyBundle, type Bundle } from '@accord/proofs';

const USAGE =
  'usage: accord-verify --receipt r.jwt --proof p.json --head h.json --jwks jwks.json [--event e.json] [--consistency c.json] [--json]\n' +
  '       accord-verify --link l.json --proof p.json --head h.json --jwks jwks.json [--json]\n' +
  '  --receipt      the receipt (compact JWS) as POST /consents or GET /consents/{id}/receipt gave it\n' +
  '  --proof        GET /consent/v0/consents/{id}/proof?treeSize=N\n' +
  '  --head         GET /consent/v0/log/tree-head (the head the proof is for)\n' +
  '  --jwks         GET /.well-known/jwks.json\n' +
  '  --event        the event object exactly as the API returned it (ties the leaf to the receipt)\n' +
  '  --consistency  GET /consent/v0/log/consistency?first=<receipt anchor size>&second=<head size>\n' +
  '  --link         a link event (it has no receipt) as POST/GET /consent/v0/subjects/links answered it, or its line of the export with links=true\n' +
  '  --json         print the checks as JSON\n';

const FILE_OPTIONS = ['receipt', 'proof', 'head', 'jwks', 'event', 'consistency', 'link'] as const;
type FileOption = (typeof FILE_OPTIONS)[number];

export interface Io {
  out(line: string): void;
  err(line: string): void;
  read(path: string): string;
}

const nodeIo: Io = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`), read: (p) => readFileSync(p, 'utf8') };

export async function main(argv: string[], io: Io = nodeIo): Promise<number> {
  const files: Partial<Record<FileOption, string>> = {};
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') {
      io.out(USAGE);
      return 0;
    }
    if (a === '--json') {
      json = true;
      continue;
    }
    const [flag, inline] = a.split(/=(.*)/s, 2) as [string, string | undefined];
    const name = flag.replace(/^--/, '') as FileOption;
    if (!flag.startsWith('--') || !FILE_OPTIONS.includes(name)) {
      io.err(`unknown argument ${a}\n${USAGE}`);
      return 2;
    }
    const value = inline ?? argv[++i];
    if (!value) {
      io.err(`${flag} needs a file\n${USAGE}`);
      return 2;
    }
    files[name] = value;
  }
  const missing = (files.link ? (['proof', 'head', 'jwks'] as const) : (['receipt', 'proof', 'head', 'jwks'] as const)).filter((f) => !files[f]);
  if (missing.length) {
    io.err(`missing ${missing.map((m) => `--${m}`).join(', ')}\n${USAGE}`);
    return 2;
  }
  const forReceipts = (['receipt', 'event', 'consistency'] as const).filter((f) => files[f]);
  if (files.link && forReceipts.length) {
    io.err(`--link verifies a link event, which has no receipt: not with ${forReceipts.map((m) => `--${m}`).join(', ')}\n${USAGE}`);
    return 2;
  }

  const bundle: Partial<Bundle> = {};
  for (const [name, path] of Object.entries(files) as Array<[FileOption, string]>) {
    let text: string;
    try {
      text = io.read(path);
    } catch (err) {
      io.err(`cannot read --${name} ${path}: ${(err as Error).message}`);
      return 2;
    }
    if (name === 'receipt') {
      bundle.receipt = text;
      continue;
    }
    try {
      bundle[name] = JSON.parse(text);
    } catch (err) {
      io.err(`--${name} ${path} is not JSON: ${(err as Error).message}`);
      return 2;
    }
  }

  const result = await verifyBundle(bundle as Bundle);
  if (json) io.out(JSON.stringify(result, null, 2));
  else {
    for (const c of result.checks) io.out(`${c.result === 'ok' ? 'OK  ' : c.result === 'failed' ? 'FAIL' : 'SKIP'} ${c.name}: ${c.detail}`);
    io.out(result.ok ? 'verified' : 'NOT verified');
  }
  return result.ok ? 0 : 1;
}
