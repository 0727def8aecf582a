import { Metadata, status, type ServiceError } from '@grpc/grpc-js';

/** A field at fault: a JSON-pointer-like path into the request (e.g. "/0/subject"). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * The one error model. Domain code throws these; the gRPC layer maps them to status codes
 * and the gateway maps those to HTTP problems. `expose` says the message is safe to show.
 */
export class AppError extends Error {
  readonly expose: boolean = true;
  constructor(
    readonly code: status,
    message: string,
    readonly fields: FieldError[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidArgumentError extends AppError {
  constructor(message: string, fields: FieldError[] = []) {
    super(status.INVALID_ARGUMENT, message, fields);
  }
  static field(field: string, message: string): InvalidArgumentError {
    return new InvalidArgumentError(`${field}: ${message}`, [{ field, message }]);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(status.NOT_FOUND, message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(status.ALREADY_EXISTS, message);
  }
}
export class FailedPreconditionError extends AppError {
  constructor(message: string, fields: FieldError[] = []) {
    super(status.FAILED_PRECONDITION, message, fields);
  }
}
export class PermissionDeniedError extends AppError {
  constructor(message = 'Permission denied') {
    super(status.PERMISSION_DENIED, message);
  }
}
export class UnauthenticatedError extends AppError {
  constructor(message = 'Unauthenticated') {
    super(status.UNAUTHENTICATED, message);
  }
}
export class UnavailableError extends AppError {
  constructor(message = 'Service unavailable') {
    super(status.UNAVAILABLE, message);
  }
}
/**
 * A limit of the caller's account is exhausted: RESOURCE_EXHAUSTED with the seconds after which
 * to retry, as trailing metadata `retry-after` and as google.rpc.RetryInfo in the status details
 * (`grpc-status-details-bin`), which gRPC libraries decode (Go: status.FromError(err).Details()).
 */
export class ResourceExhaustedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(status.RESOURCE_EXHAUSTED, message);
  }
}

/** The operation cannot be done now and may succeed when retried (HTTP 409 with Retry-After for a log proof not ready yet). */
export class AbortedError extends AppError {
  constructor(message: string) {
    super(status.ABORTED, message);
  }
}
/**
 * The outcome is not known: the operation may or may not have taken effect (gRPC's
 * DEADLINE_EXCEEDED says exactly that; HTTP 504). For a write whose store stopped answering
 * half-way; the caller should look before sending it again.
 */
export class OutcomeUnknownError extends AppError {
  constructor(message: string) {
    super(status.DEADLINE_EXCEEDED, message);
  }
}

/** Trailing metadata key carrying field errors as JSON from a service to the gateway. */
export const FIELD_ERRORS_KEY = 'accord-field-errors';
/**
 * Trailing metadata key set on UNAVAILABLE answers a service sends itself (its database is
 * unreachable): the call reached a server, so clients do not retry it (createClient).
 */
export const SERVER_UNAVAILABLE_KEY = 'accord-unavailable';

/** Driver errors that mean the database cannot be reached right now (not a bad request or a bug). */
const DATABASE_DOWN = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
]);

/** True for a driver error meaning the database is unreachable, also when wrapped (a bulk write keeps it in `errorResponse`). */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { name?: string; cause?: unknown; errorResponse?: unknown };
  if (e.name && DATABASE_DOWN.has(e.name)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1) || isDatabaseUnavailable(e.errorResponse, depth + 1);
}

/**
 * JSON with every character outside printable ASCII escaped (\uXXXX): gRPC metadata values must
 * be printable ASCII, and grpc-js throws on anything else, so a field error quoting the caller's
 * input (`unknown event type "ü"`) would otherwise never reach the gateway.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Turns anything thrown by a handler into a gRPC ServiceError. Unknown errors become INTERNAL
 * with a generic message; `onInternal` is called once so that the caller logs the stack.
 */
export function toServiceError(err: unknown, onInternal: (err: unknown) => void): Partial<ServiceError> {
  if (err instanceof AppError) {
    const metadata = new Metadata();
    if (err.fields.length) metadata.set(FIELD_ERRORS_KEY, asciiJson(err.fields));
    if (err instanceof ResourceExhaustedError) {
      metadata.set('retry-after', String(err.retryAfterSeconds));
      metadata.set('grpc-status-details-bin', statusWithRetryInfo(err.code, err.message, err.retryAfterSeconds));
    }
    return { code: err.code, details: err.message, metadata };
  }
  if (isDatabaseUnavailable(err)) {
    // 503 to the caller, not a 500 logged with a stack for every request of an outage
    const metadata = new Metadata();
    metadata.set(SERVER_UNAVAILABLE_KEY, 'database');
    return { code: status.UNAVAILABLE, details: 'Database unavailable', metadata };
  }
  if (isServiceError(err) && err.code !== undefined && err.code !== status.INTERNAL && err.code !== status.UNKNOWN) {
    // An error from a downstream call that is meaningful as it is (e.g. NOT_FOUND, UNAVAILABLE).
    return { code: err.code, details: err.details, metadata: new Metadata() };
  }
  onInternal(err);
  return { code: status.INTERNAL, details: 'Internal error', metadata: new Metadata() };
}

/** Protobuf's wire format, the little of it a google.rpc.Status with one RetryInfo needs. */
const varint = (n: number): Buffer => {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
};
const field = (no: number, value: number | Buffer | string): Buffer =>
  typeof value === 'number'
    ? Buffer.concat([varint(no << 3), varint(value)])
    : Buffer.concat([varint((no << 3) | 2), varint(Buffer.byteLength(value)), Buffer.from(value)]);

/** google.rpc.Status{code, message, details: [Any{google.rpc.RetryInfo{retry_delay: Duration{seconds}}}]}, serialized. */
export function statusWithRetryInfo(code: number, message: string, retryAfterSeconds: number): Buffer {
  const duration = field(1, Math.max(0, Math.ceil(retryAfterSeconds)));
  const retryInfo = field(1, duration);
  const any = Buffer.concat([field(1, 'type.googleapis.com/google.rpc.RetryInfo'), field(2, retryInfo)]);
  return Buffer.concat([field(1, code), field(2, message), field(3, any)]);
}

export function isServiceError(err: unknown): err is ServiceError {
  return typeof err === 'object' && err !== null && 'code' in err && typeof (err as { code: unknown }).code === 'number' && 'details' in err;
}

/** Field errors sent by a service, read back from a ServiceError's metadata. */
export function fieldErrorsOf(err: ServiceError): FieldError[] {
  const raw = err.metadata?.get(FIELD_ERRORS_KEY)?.[0];
  if (typeof raw !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as FieldError[]) : [];
  } catch {
    return [];
  }
}
