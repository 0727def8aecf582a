import { failureCases, isAcceptedValidBody, onlyFalsePositives } from './findings';

const curl = (body: string) =>
  `curl -X POST -H 'Authorization: [Filtered]' -H 'x-api-key: [Filtered]' -H 'Content-Type: application/json' -d '${body}' http://127.0.0.1:21447/dataprocessing/v0/dpgroups/6b048b21cde71281c5136948/specs`;

/** A schemathesis report as it prints it (CI, 24bb927), with the cases given. */
const report = (...cases: Array<{ op: string; checks: string[]; body: string }>) => `
=================================== FAILURES ===================================
${cases
  .map(
    (c, i) => `______________ ${c.op} _______________
${i + 1}. Test Case ID: C${i}

${c.checks.map((t) => `- ${t}`).join('\n\n')}

    Invalid data should have been rejected
    Invalid component: Missing required property: /location

[201] Created:

    \`{"id":"6b048b7ccde71281c513c5c2"}\`

Reproduce with:

    ${curl(c.body)}

    st replay C${i}
`,
  )
  .join('\n')}
=================================== WARNINGS ===================================

Authentication failed: 23 operations returned only 401/403 responses
  - POST /oauth/v0/token
=================================== SUMMARY ====================================

Test Phases:
  ✅ Examples
  ❌ Coverage

Failures:
  ❌ ST201 Schema-violating request accepted: ${cases.length}
`;

const SPECS = 'POST /dataprocessing/v0/dpgroups/{group_id}/specs';
const FOUND_IN_CI =
  '{"action": "collect", "consentTarget": null, "consentValidityDays": 1, "data": "e-mail", "duration": 1, "externalHref": "https://0.com", "legalBasis": null, "location": "0", "purpose": "marketing", "sensitive": null, "texts": []}';

describe("schemathesis's report", () => {
  test('an "accepted schema-violating request" whose sent body the document accepts is the tool\'s false positive', () => {
    const [c] = failureCases(report({ op: SPECS, checks: ['ST201 Schema-violating request accepted'], body: FOUND_IN_CI }));
    expect(c).toMatchObject({ operation: SPECS, id: 'C0', checks: ['ST201 Schema-violating request accepted'] });
    expect(isAcceptedValidBody(c!)).toBe(true);
  });

  test('the same report about a body the document refuses is a finding', () => {
    const invalid = FOUND_IN_CI.replace('"location": "0"', '"location": ""'); // minLength 1
    const [c] = failureCases(report({ op: SPECS, checks: ['ST201 Schema-violating request accepted'], body: invalid }));
    expect(isAcceptedValidBody(c!)).toBe(false);
  });

  test('any other failure of the case, an unreadable body or an operation the document lacks is a finding', () => {
    const cases = failureCases(
      report(
        { op: SPECS, checks: ['ST201 Schema-violating request accepted', 'Server error'], body: FOUND_IN_CI },
        { op: SPECS, checks: ['ST201 Schema-violating request accepted'], body: '{"data": ' },
        { op: 'POST /nowhere/{id}', checks: ['ST201 Schema-violating request accepted'], body: FOUND_IN_CI },
      ),
    );
    expect(cases.map((c) => [c.id, isAcceptedValidBody(c)])).toEqual([
      ['C0', false],
      ['C1', false],
      ['C2', false],
    ]);
  });

  test('a run is excused only when every failure it counts is such a false positive and it has no errors', () => {
    const valid = { op: SPECS, checks: ['ST201 Schema-violating request accepted'], body: FOUND_IN_CI };
    expect(onlyFalsePositives(report(valid))?.map((c) => c.id)).toEqual(['C0']);
    expect(onlyFalsePositives(report(valid, { ...valid, body: FOUND_IN_CI.replace('"e-mail"', '""') }))).toBeUndefined();
    // a failure counted in the summary that the report's cases do not show (e.g. another format)
    expect(onlyFalsePositives(report(valid).replace('accepted: 1', 'accepted: 2'))).toBeUndefined();
    expect(onlyFalsePositives(report(valid) + '\n=================================== ERRORS ===================================\n')).toBeUndefined();
  });

  test('a report without a FAILURES section has no cases (the caller then fails on the exit code)', () => {
    expect(failureCases('=================================== ERRORS ===================================\nboom')).toEqual([]);
  });

  test('a text body (CSV, NDJSON) the document declares as any string is accepted whatever was generated; JSON is still checked', () => {
    // CI on a75077a: a "negative" integer sent as text/csv to the import, which reads any text
    const csv = report({ op: 'POST /consent/v0/imports', checks: ['ST201 Schema-violating request accepted'], body: '' }).replace(
      /curl .*$/m,
      "curl -X POST -H 'Authorization: [Filtered]' -H 'x-api-key: [Filtered]' -H 'Content-Type: text/csv' -d -48843 http://127.0.0.1:23411/consent/v0/imports",
    );
    const [c] = failureCases(csv);
    expect(isAcceptedValidBody(c!)).toBe(true);
    expect(isAcceptedValidBody({ ...c!, text: c!.text.replace('text/csv', 'application/x-ndjson') })).toBe(true);
    // a text type the operation does not declare is no excuse
    expect(isAcceptedValidBody({ ...c!, operation: SPECS })).toBe(false);
  });
});
