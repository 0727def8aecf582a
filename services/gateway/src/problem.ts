import type { Response } from 'express';
import type { FieldError } from '@accord/common';

/**
 * An RFC 9457 problem. Throw it from a route (Express 5 forwards rejected promises) or from
 * middleware; the final error middleware writes it as application/problem+json.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
    /** Short slug for the problem type URI: urn:accord:problem:<slug>. */
    readonly slug = slugFor(status),
  ) {
    super(detail ?? title);
  }

  static validation(errors: FieldError[], detail = 'The request is not valid; see errors for each field at fault.'): HttpProblem {
    return new HttpProblem(400, 'Invalid request', detail, errors, {}, 'validation');
  }
  static field(field: string, message: string): HttpProblem {
    return HttpProblem.validation([{ field, message }], `${field}: ${message}`);
  }
  static notFound(detail = 'No such resource.'): HttpProblem {
    return new HttpProblem(404, 'Not found', detail);
  }
}

/**
 * A path parameter decoded (`%2F` → `/`), or a 400 problem naming it when its percent-escapes are
 * not UTF-8 (`%E0%A4%A`, `%zz`): such a path names nothing, and decodeURIComponent would throw.
 */
export function decodedPathParam(raw: string, name: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw HttpProblem.field(name, 'is not valid percent-encoded UTF-8');
  }
}

const TITLES: Record<number, [string, string]> = {
  400: ['Bad request', 'bad-request'],
  401: ['Unauthorized', 'unauthorized'],
  403: ['Forbidden', 'forbidden'],
  404: ['Not found', 'not-found'],
  405: ['Method not allowed', 'method-not-allowed'],
  406: ['Not acceptable', 'not-acceptable'],
  409: ['Conflict', 'conflict'],
  412: ['Precondition failed', 'precondition-failed'],
  413: ['Payload too large', 'payload-too-large'],
  415: ['Unsupported media type', 'unsupported-media-type'],
  429: ['Too many requests', 'rate-limited'],
  499: ['Client closed request', 'cancelled'],
  500: ['Internal server error', 'internal'],
  501: ['Not implemented', 'not-implemented'],
  503: ['Service unavailable', 'unavailable'],
  504: ['Gateway timeout', 'timeout'],
};

export function titleFor(status: number): string {
  return TITLES[status]?.[0] ?? 'Error';
}
function slugFor(status: number): string {
  return TITLES[status]?.[1] ?? 'error';
}

export function sendProblem(res: Response, p: HttpProblem, instance: string, requestId?: string): void {
  for (const [k, v] of Object.entries(p.headers)) res.setHeader(k, v);
  res
    .status(p.status)
    .type('application/problem+json')
    .json({
      type: `urn:accord:problem:${p.slug}`,
      title: p.title,
      status: p.status,
      ...(p.detail ? { detail: p.detail } : {}),
      instance,
      ...(requestId ? { requestId } : {}),
      ...(p.errors.length ? { errors: p.errors } : {}),
    });
}
