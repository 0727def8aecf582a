/**
 * Reads schemathesis's failure report and tells its own false positives from findings.
 *
 * "Schema-violating request accepted" (ST201) is decided from how a case was generated, not from
 * the request finally sent: a negative case can end up valid (shrinking drops the invalid part,
 * schemathesis issue #4332; or a mutation the document does not forbid), and the check still
 * reports it. Such a case is a finding only when the document itself refuses the JSON body that
 * was sent — the same ajv check the gateway runs on every request. Every other failure, and an
 * ST201 case whose body the document refuses or that cannot be read back, is a finding.
 */
import { validatorAt } from '../../services/gateway/src/openapi/validate';

export interface FuzzCase {
  operation: string;
  id: string;
  checks: string[];
  text: string;
}

const pointer = (...parts: string[]) => '/' + parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/** The cases of the report's FAILURES section, each with its operation (`POST /path/{template}`) and check titles. */
export function failureCases(out: string): FuzzCase[] {
  const start = out.indexOf('= FAILURES =');
  if (start < 0) return [];
  const ends = ['= WARNINGS =', '= SUMMARY ='].map((w) => out.indexOf(w, start)).filter((i) => i > start);
  const section = out.slice(start, ends.length ? Math.min(...ends) : undefined);
  const cases: FuzzCase[] = [];
  let operation = '';
  for (const block of section.split(/^\s*(?=_{3,} .+? _{3,}\s*$|\d+\. Test Case ID: )/m)) {
    const header = /^\s*_{3,} (.+?) _{3,}/.exec(block);
    if (header) operation = header[1]!;
    const id = /^\s*\d+\. Test Case ID: (\S+)/.exec(block);
    if (!id) continue;
    const checks = [...block.matchAll(/^\s*- (.+?)\s*$/gm)].map((m) => m[1]!);
    cases.push({ operation, id: id[1]!, checks, text: block });
  }
  return cases;
}

/** The JSON body of a case's `curl` reproduction, or undefined when it has none or it does not parse. */
function sentJson(text: string): unknown {
  const curl = /^\s*curl .*$/m.exec(text)?.[0];
  if (!curl || !/-H 'Content-Type: application\/json'/.test(curl)) return undefined;
  const data = /-d '((?:[^']|'"'"')*)'/.exec(curl)?.[1];
  if (data === undefined) return undefined;
  try {
    return JSON.parse(data.replace(/'"'"'/g, "'"));
  } catch {
    return undefined;
  }
}

/**
 * The text media type of a case's `curl` reproduction (text/csv, application/x-ndjson), whose body
 * the document declares as `type: string`: any bytes sent are such a string, so a "negative" body
 * (an integer, say) arrives as text the document accepts.
 */
function sentText(text: string): string | undefined {
  const curl = /^\s*curl .*$/m.exec(text)?.[0];
  return curl ? /-H 'Content-Type: (text\/csv|application\/x-ndjson)'/.exec(curl)?.[1] : undefined;
}

/** Whether the case is an ST201 report about a JSON body, or a text body, that the document accepts. */
export function isAcceptedValidBody(c: FuzzCase): boolean {
  if (!c.checks.length || !c.checks.every((t) => /Schema-violating request accepted/.test(t))) return false;
  const [method, template] = c.operation.split(' ');
  const textType = sentText(c.text);
  if (method && template && textType) {
    try {
      return validatorAt(pointer('paths', template, method.toLowerCase(), 'requestBody', 'content', textType, 'schema'))('any text');
    } catch {
      return false;
    }
  }
  const body = sentJson(c.text);
  if (!method || !template || body === undefined) return false;
  try {
    return validatorAt(pointer('paths', template, method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'))(body);
  } catch {
    return false; // no such operation or body schema in the document: not ours to excuse
  }
}

/** The failures the SUMMARY counts (`❌ ST201 Schema-violating request accepted: 1` …), in all. */
export function failureCount(out: string): number {
  const summary = out.slice(Math.max(0, out.indexOf('= SUMMARY =')));
  return [...summary.matchAll(/^\s*❌ .+: (\d+)\s*$/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

/**
 * The cases to excuse when every failure of a run is an ST201 report about a body the document
 * accepts; otherwise none (the run failed on a finding, an error, or a report we cannot read).
 */
export function onlyFalsePositives(out: string): FuzzCase[] | undefined {
  if (out.includes('= ERRORS =')) return undefined;
  const cases = failureCases(out);
  if (!cases.length || cases.length !== failureCount(out) || !cases.every(isAcceptedValidBody)) return undefined;
  return cases;
}
