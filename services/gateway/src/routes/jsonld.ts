import type { Request, Response } from 'express';
import type { FieldError } from '@accord/common';
import { contracts } from '@accord/proto';
import { HttpProblem } from '../problem';

/**
 * The negotiation of the W3C DPV JSON-LD view (ISO/IEC TS 27560) of records: transport only —
 * the mapping is @accord/proto's contracts/dpv.ts; a mapping error is answered 406.
 */
const { dpv } = contracts;

/**
 * Whether the request asks for JSON-LD: `format=jsonld`, or an Accept that prefers
 * `application/ld+json` to `application/json` (no Accept, or `*` + `/*`, stays JSON). Another
 * `format` is a 400 naming it.
 */
export function asksJsonLd(req: Request, alternatives: string[] = ['application/json']): boolean {
  const format = (req.query as Record<string, unknown>).format;
  if (format !== undefined && format !== dpv.JSONLD_FORMAT) throw HttpProblem.field('format', `must be ${dpv.JSONLD_FORMAT}`);
  return dpv.wantsJsonLd(format, req.accepts([...alternatives, dpv.JSONLD_MEDIA_TYPE]));
}

/** Sends a JSON-LD document (an object, or its JSON text as the consent service writes it). */
export function sendJsonLd(res: Response, doc: Record<string, unknown> | string): void {
  res.setHeader('Vary', 'Accept');
  res
    .status(200)
    .type(`${dpv.JSONLD_MEDIA_TYPE}; charset=utf-8`)
    .send(typeof doc === 'string' ? doc : JSON.stringify(doc));
}

/** The 406 of a view DPV cannot say: the fields at fault. */
export function notMapped(what: string, fields: FieldError[]): HttpProblem {
  return new HttpProblem(
    406,
    'Not acceptable',
    `This ${what} has no W3C DPV mapping for ${fields.map((f) => f.field).join(', ')}; ask for application/json.`,
    fields,
  );
}

/** Builds a view, answering 406 with the fields DPV cannot say. */
export function mapped<T>(what: string, build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (err instanceof dpv.DpvMappingError) throw notMapped(what, err.fields);
    throw err;
  }
}
