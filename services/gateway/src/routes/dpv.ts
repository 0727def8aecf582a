import { status as Code } from '@grpc/grpc-js';
import { fieldErrorsOf, isServiceError } from '@accord/common';
import type { consentv1 } from '@accord/proto';
import type { GatewayContext } from '../context';
import { notMapped } from './jsonld';

/**
 * W3C DPV JSON-LD records (ISO/IEC TS 27560) of consent events, as the consent service writes
 * them (its app/records.ts): transport only.
 */

/**
 * One event's record, or with `receipt` its receipt, as JSON text (GetConsentRecord); a 406
 * naming the fields DPV cannot say. The consent service's other FAILED_PRECONDITION (a receipt
 * of an erased subject) is the caller's to answer.
 */
export async function consentRecord(ctx: GatewayContext, accountId: string, id: string, receipt: boolean): Promise<string> {
  try {
    return (await ctx.clients.consent.getConsentRecord({ accountId, id, receipt })).jsonld;
  } catch (err) {
    const fields = isServiceError(err) && err.code === Code.FAILED_PRECONDITION ? fieldErrorsOf(err) : [];
    if (fields.length) throw notMapped('consent event', fields);
    throw err;
  }
}

/** An export's pages as NDJSON of DPV records (ExportConsentRecords: the consent service carries the state from page to page). */
export async function* recordPages(ctx: GatewayContext, request: consentv1.ExportConsentRecordsRequest): AsyncGenerator<{ lines: string; total?: number }> {
  for await (const page of ctx.clients.consent.exportConsentRecords(request)) {
    yield { lines: page.jsonld.map((doc) => `${doc}\n`).join(''), ...(page.total !== undefined ? { total: page.total } : {}) };
  }
}
