/**
 * Identifiers that cannot be stored exactly as sent, over gRPC (issue 33): a gRPC caller's string
 * arrives decoded already — the generated decoders read UTF-8 without failing, so bytes that are
 * not UTF-8 arrive as U+FFFD, and every encoder (this client's too) writes a lone UTF-16
 * surrogate as U+FFFD. Two subjects (`u-\ud800`, `u-\udbff`) would become one; the consent
 * service refuses any identifier holding U+FFFD, in what it stores and in what it looks up,
 * naming the field. Each principal field, each way of sending it, each call that takes it.
 */
import { Client, credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { SERVICE_TOKEN_HEADER, serviceSigner } from '@accord/common';
import { consentv1 } from '@accord/proto';
import { consentInput as input, expectGrpcError, fieldErrors, startService, TEST_IDENTITIES, type RunningService } from '@accord/testkit';

let svc: RunningService<'consent'>;
let raw: Client;
const A = { accountId: 'acc-ids', appId: 'app-ids' };

beforeAll(async () => {
  svc = await startService('consent', 'identifiers');
  raw = new Client(svc.addr, credentials.createInsecure());
});
afterAll(async () => {
  raw?.close();
  await svc?.stop();
});

/** Stands in the message for the bad part, then is replaced in its bytes (same length, so the framing holds). */
const MARK = '\u0001\u0002\u0003';
const MARK_BYTES = Buffer.from(MARK, 'utf8');

type Method<Req> = { path: string; requestSerialize: (r: Req) => Buffer; responseDeserialize: (b: Buffer) => unknown };

/** A call whose marked string carries `bytes` on the wire instead (bytes the generated client cannot send). */
function rawCall<Req>(method: Method<Req>, req: Req, bytes: Buffer): Promise<unknown> {
  const encoded = method.requestSerialize(req);
  const at = encoded.indexOf(MARK_BYTES);
  if (at < 0 || bytes.length !== MARK_BYTES.length) throw new Error('the mark is not in the encoded request');
  const sent = Buffer.concat([encoded.subarray(0, at), bytes, encoded.subarray(at + bytes.length)]);
  // the caller the test's own client is: the gateway's service identity
  const metadata = new Metadata();
  metadata.set(SERVICE_TOKEN_HEADER, serviceSigner('gateway', TEST_IDENTITIES.gateway)!.token());
  return new Promise((resolve, reject) =>
    raw.makeUnaryRequest(
      method.path,
      (b: Buffer) => b,
      method.responseDeserialize,
      sent,
      metadata,
      { deadline: Date.now() + 10_000 },
      (err: ServiceError | null, out?: unknown) => (err ? reject(err) : resolve(out)),
    ),
  );
}

/** How a bad identifier is sent: the value (with MARK where raw bytes go) and how the call is made. */
const WAYS = {
  'with a lone surrogate (the client encodes U+FFFD)': { value: 'u-\ud800', bytes: undefined },
  'as bytes that are not UTF-8 (a CESU-8 surrogate)': { value: `u-${MARK}`, bytes: Buffer.from([0xed, 0xa0, 0x80]) },
  'as bytes that are not UTF-8 (0xFF)': { value: `u-${MARK}`, bytes: Buffer.from([0xff, 0xfe, 0x41]) },
  'holding U+FFFD itself': { value: 'u-\uFFFD', bytes: undefined },
} as const;
type Way = keyof typeof WAYS;

function send<Req>(method: Method<Req>, call: (r: Req) => Promise<unknown>, way: Way, req: Req): Promise<unknown> {
  const { bytes } = WAYS[way];
  return bytes ? rawCall(method, req, bytes) : call(req);
}

/** The field errors of a refused call (INVALID_ARGUMENT expected). */
async function refused(p: Promise<unknown>): Promise<Array<{ field: string; message: string }>> {
  return fieldErrors(await expectGrpcError(p, status.INVALID_ARGUMENT));
}

const IDENTIFIER = expect.stringMatching(/^must not hold U\+FFFD/);
const JURISDICTION = expect.stringMatching(/ISO 3166/);
const cases = <F extends string>(fields: readonly F[]) => fields.flatMap((f) => (Object.keys(WAYS) as Way[]).map((w) => [f, w] as const));

describe('an identifier that cannot be stored exactly as sent, over gRPC', () => {
  const EVENT_FIELDS = ['subject', 'issuer', 'target', 'source', 'scope', 'delegate', 'jurisdiction'] as const;
  const svcMethods = consentv1.ConsentServiceService;

  test.each(cases(EVENT_FIELDS))('is refused in a single event: %s sent %s', async (field, way) => {
    const req = { ...A, events: [input({ subject: `single-${field}`, [field]: WAYS[way].value })] };
    const errors = await refused(send(svcMethods.createConsents, (r) => svc.client.createConsents(r), way, req));
    expect(errors).toEqual([{ field: `/0/${field}`, message: field === 'jurisdiction' ? JURISDICTION : IDENTIFIER }]);
  });

  test.each(cases(EVENT_FIELDS))('is refused in an array, and nothing of it is stored: %s sent %s', async (field, way) => {
    const subject = `array-${field}-${way.length}`;
    const req = { ...A, events: [input({ subject }), input({ subject, [field]: WAYS[way].value }), input({ subject })] };
    const errors = await refused(send(svcMethods.createConsents, (r) => svc.client.createConsents(r), way, req));
    expect(errors).toEqual([{ field: `/1/${field}`, message: field === 'jurisdiction' ? JURISDICTION : IDENTIFIER }]);
    const stored = await svc.client.searchConsents({ accountId: A.accountId, subject, issuer: input().issuer, target: input().target, current: false });
    expect(stored.events).toEqual([]);
  });

  test.each(cases(['subject', 'issuer', 'target', 'scope', 'jurisdiction'] as const))('is refused in a decision item: %s sent %s', async (field, way) => {
    const good = { subject: 'u-1', issuer: input().issuer, target: input().target };
    const req = { accountId: A.accountId, items: [good, { ...good, [field]: WAYS[way].value }] };
    const errors = await refused(send(svcMethods.decide, (r) => svc.client.decide(r), way, req));
    expect(errors).toEqual([{ field: `/items/1/${field}`, message: field === 'jurisdiction' ? JURISDICTION : IDENTIFIER }]);
  });

  test.each(cases(['subject', 'issuer', 'target', 'source', 'scope', 'jurisdiction'] as const))('is refused in a search: %s sent %s', async (field, way) => {
    const req = { accountId: A.accountId, subject: 'u-1', issuer: input().issuer, target: input().target, current: false, [field]: WAYS[way].value };
    const errors = await refused(send(svcMethods.searchConsents, (r) => svc.client.searchConsents(r), way, req));
    expect(errors).toEqual([{ field, message: field === 'jurisdiction' ? JURISDICTION : IDENTIFIER }]);
  });

  test.each(cases(['subject', 'target', 'appId'] as const))('is refused in an export: %s sent %s', async (field, way) => {
    const req = { accountId: A.accountId, cursor: '', limit: 10, withTotal: false, [field]: WAYS[way].value };
    expect(await refused(send(svcMethods.exportConsents, (r) => svc.client.exportConsents(r), way, req))).toEqual([{ field, message: IDENTIFIER }]);
  });

  test.each(cases(['subject', 'issuer'] as const))('is refused in an erasure: %s sent %s', async (field, way) => {
    const req = { ...A, clientId: 'cli', subject: 'u-1', [field]: WAYS[way].value };
    expect(await refused(send(svcMethods.eraseSubject, (r) => svc.client.eraseSubject(r), way, req))).toEqual([{ field: `/${field}`, message: IDENTIFIER }]);
  });

  test.each(cases(['subject', 'issuer', 'targets/0'] as const))('is refused in a read of current states: %s sent %s', async (field, way) => {
    const req = { accountId: A.accountId, subject: 'u-1', issuer: input().issuer, targets: [] as string[] };
    if (field === 'targets/0') req.targets = [WAYS[way].value];
    else req[field] = WAYS[way].value;
    expect(await refused(send(svcMethods.getCurrentStates, (r) => svc.client.getCurrentStates(r), way, req))).toEqual([{ field, message: IDENTIFIER }]);
  });

  it('so two subjects never become one: a consent of u-\\ud800 is refused, and a decision for u-\\udbff decides nothing from it', async () => {
    const ev = { subject: 'u-\ud800', issuer: 'https://i.example', target: 'https://t.example', action: true };
    await refused(svc.client.createConsents({ ...A, events: [ev] }));
    await refused(svc.client.decide({ accountId: A.accountId, items: [{ ...ev, subject: 'u-\udbff' }] }));
    const other = await svc.client.decide({ accountId: A.accountId, items: [{ ...ev, subject: 'u-other' }] });
    expect(other.decisions[0]).toMatchObject({ allowed: false, basis: 'no-consent' });
  });
});
