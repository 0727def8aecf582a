import { metricRows, parseSamples } from './metrics';

const exposition = (pending: number, accepted: number, handled: number) => `# HELP accord_consent_events_recorded_total Consent events stored, by action.
# TYPE accord_consent_events_recorded_total counter
accord_consent_events_recorded_total{action="accepted"} ${accepted}
accord_consent_events_recorded_total{action="declined"} 4
accord_consent_outbox_pending_events ${pending}
grpc_server_handled_total{grpc_service="accord.consent.v1.ConsentService",grpc_method="CreateConsents",grpc_code="OK"} ${handled}
grpc_server_handled_total{grpc_service="accord.consent.v1.ConsentService",grpc_method="GetConsent",grpc_code="OK"} ${handled}
process_cpu_seconds_total 1.5
`;

const prefixed = (text: string) => new Map([...parseSamples(text)].map(([k, v]) => [`consent ${k}`, v]));

describe('bench domain metrics', () => {
  test('parses samples with labels, skipping comments', () => {
    const s = parseSamples(exposition(3, 10, 1));
    expect(s.get('accord_consent_events_recorded_total{action="accepted"}')).toBe(10);
    expect(s.get('accord_consent_outbox_pending_events')).toBe(3);
    expect([...s.keys()].some((k) => k.startsWith('#'))).toBe(false);
  });

  test('reports counters that moved as their change, gauges as they are, gRPC calls summed per service and code', () => {
    const rows = metricRows(prefixed(exposition(3, 10, 1)), prefixed(exposition(0, 25, 6)));
    expect(rows).toEqual([
      { series: 'consent accord_consent_events_recorded_total{action="accepted"}', value: 15, kind: 'delta' },
      { series: 'consent accord_consent_outbox_pending_events', value: 0, kind: 'now' },
      { series: 'consent grpc_server_handled_total{grpc_service="accord.consent.v1.ConsentService",grpc_code="OK"}', value: 10, kind: 'delta' },
    ]);
  });
});
