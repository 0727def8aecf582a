import type { Request, Response } from 'express';
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

/** Sends a JSON-LD document. */
export function sendJsonLd(res: Response, doc: unknown): void {
  res.setHeader('Vary', 'Accept');
  res.status(200).type(`${dpv.JSONLD_MEDIA_TYPE}; charset=utf-8`).send(JSON.stringify(doc));
}

/** Builds a view, answering 406 with the fields DPV cannot say. */
export function mapped<T>(what: string, build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (err instanceof dpv.DpvMappingError) {
      throw new HttpProblem(
        406,
        'Not acceptable',
        `This ${what} has no W3C DPV mapping for ${err.fields.map((f) => f.field).join(', ')}; ask for application/json.`,
        err.fields,
      );
    }
    throw err;
  }
}
