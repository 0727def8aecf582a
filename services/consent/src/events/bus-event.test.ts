import { headers as natsHeaders } from 'nats';
import { CONSENT_BUS_CONTENT_TYPE, consentEventJson, decodeConsentBusEvent } from '@accord/proto';
import { buildEvents, validateInputs } from '../domain/consent';
import { eventMessage } from '../domain/wire';
import { consentBusEvent, publishBusEvent } from './bus-event';

type Headers = ReturnType<typeof natsHeaders>;

function fakeJs() {
  const sent: Array<{ subject: string; data: Uint8Array; msgID?: string; headers?: Headers }> = [];
  return {
    sent,
    publish: async (subject: string, data?: Uint8Array, o?: { msgID?: string; headers?: Headers }) => {
      sent.push({ subject, data: data!, msgID: o?.msgID, headers: o?.headers });
      return {} as never;
    },
  };
}

describe('publishing consent bus events', () => {
  const [ev] = buildEvents('acc', 'app', validateInputs([{ subject: 's', issuer: 'i', target: 't', action: false, source: 'web', targetVersion: 2 }]));

  it('writes the binary ConsentBusEvent with its Content-Type, Nats-Msg-Id = event id and the trace headers', async () => {
    const js = fakeJs();
    await publishBusEvent(js, 'x.events.consent.acc.app', consentBusEvent(ev!), { timeout: 1000, trace: { traceparent: '00-abc-def-01' } });
    const [m] = js.sent;
    expect(m).toMatchObject({ subject: 'x.events.consent.acc.app', msgID: ev!.id });
    expect(m!.headers!.get('Content-Type')).toBe(CONSENT_BUS_CONTENT_TYPE);
    expect(m!.headers!.get('traceparent')).toBe('00-abc-def-01');
    const decoded = decodeConsentBusEvent(m!.data);
    expect(decoded).toMatchObject({ id: ev!.id, type: 'consent', accountId: 'acc', appId: 'app', occurredAt: ev!.createdAt });
    expect(decoded.event).toEqual(eventMessage(ev!));
  });

  it('with encoding json, writes the JSON envelope of earlier releases (no Content-Type), data rendered as REST renders it', async () => {
    const js = fakeJs();
    await publishBusEvent(js, 'x.events.consent.acc.app', consentBusEvent(ev!), { timeout: 1000, encoding: 'json' });
    const [m] = js.sent;
    expect(m!.headers?.get('Content-Type') ?? '').toBe('');
    expect(m!.msgID).toBe(ev!.id);
    expect(JSON.parse(Buffer.from(m!.data).toString('utf8'))).toEqual({
      id: ev!.id,
      type: 'consent',
      accountId: 'acc',
      appId: 'app',
      occurredAt: ev!.createdAt.toISOString(),
      data: consentEventJson(eventMessage(ev!)),
    });
  });
});
