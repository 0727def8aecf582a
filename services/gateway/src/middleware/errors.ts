import { status as Code } from '@grpc/grpc-js';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { currentRequestId, fieldErrorsOf, isServiceError, type Logger } from '@accord/common';
import { HttpProblem, sendProblem, titleFor } from '../problem';

/** gRPC status → HTTP status, as grpc-gateway maps them (runtime/errors.go). */
export const GRPC_TO_HTTP: Record<number, number> = {
  [Code.OK]: 200,
  [Code.CANCELLED]: 499,
  [Code.UNKNOWN]: 500,
  [Code.INVALID_ARGUMENT]: 400,
  [Code.DEADLINE_EXCEEDED]: 504,
  [Code.NOT_FOUND]: 404,
  [Code.ALREADY_EXISTS]: 409,
  [Code.PERMISSION_DENIED]: 403,
  [Code.UNAUTHENTICATED]: 401,
  [Code.RESOURCE_EXHAUSTED]: 429,
  [Code.FAILED_PRECONDITION]: 400,
  [Code.ABORTED]: 409,
  [Code.OUT_OF_RANGE]: 400,
  [Code.UNIMPLEMENTED]: 501,
  [Code.INTERNAL]: 500,
  [Code.UNAVAILABLE]: 503,
  [Code.DATA_LOSS]: 500,
};

/** Body-parser errors carry a `type` and an HTTP `status`. */
interface ParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** Converts anything thrown into an HttpProblem; 5xx details are never exposed. */
export function toProblem(err: unknown): HttpProblem {
  if (err instanceof HttpProblem) return err;
  if (isServiceError(err)) {
    const status = GRPC_TO_HTTP[err.code] ?? 500;
    if (status >= 500) {
      const detail =
        err.code === Code.UNAVAILABLE
          ? 'A backing service is unavailable; try again shortly.'
          : err.code === Code.DEADLINE_EXCEEDED
            ? 'A backing service did not answer in time.'
            : err.code === Code.UNIMPLEMENTED
              ? 'This operation is not implemented yet.'
              : undefined;
      return new HttpProblem(status, titleFor(status), detail);
    }
    const fields = fieldErrorsOf(err);
    if (status === 400 && fields.length) return HttpProblem.validation(fields, err.details);
    // a conflict may name its field too (a link that would chain: 409 naming identity or subject)
    return new HttpProblem(status, titleFor(status), err.details, fields);
  }
  // Express decoding a route parameter that is not percent-encoded UTF-8 (paths the document
  // names are refused earlier, naming the parameter: document-routing.ts)
  if (err instanceof URIError && (err as ParserError).status === 400)
    return new HttpProblem(400, titleFor(400), 'A path segment is not valid percent-encoded UTF-8.');
  const pe = err as ParserError;
  if (pe && typeof pe.status === 'number' && pe.status >= 400 && pe.status < 500 && pe.type) {
    if (pe.type === 'entity.too.large') return new HttpProblem(413, titleFor(413), 'The request body is larger than the configured limit.');
    if (pe.type === 'entity.parse.failed') return HttpProblem.field('/', 'the body is not valid JSON');
    if (pe.type === 'encoding.unsupported' || pe.type === 'charset.unsupported')
      return new HttpProblem(415, titleFor(415), 'Unsupported body encoding or charset.');
    return new HttpProblem(pe.status, titleFor(pe.status), 'The request body could not be read.');
  }
  return new HttpProblem(500, titleFor(500));
}

/** The one final error middleware: problem+json; 5xx logged once with the cause. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const problem = toProblem(err);
    if (problem.status >= 500) logger.error({ err, method: req.method, path: req.path, status: problem.status }, 'request failed');
    sendProblem(res, problem, req.originalUrl.split('?')[0] ?? req.path, currentRequestId());
  };
}

/** 404 for anything no route matched. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(HttpProblem.notFound(`No route for ${req.method} ${req.path}.`));
};
