import { Metadata, status } from '@grpc/grpc-js';
import { FIELD_ERRORS_KEY } from '@accord/common';
import { HttpProblem } from '../problem';
import { toProblem } from './errors';

const grpcError = (code: status, details: string, fields?: unknown) => {
  const metadata = new Metadata();
  if (fields) metadata.set(FIELD_ERRORS_KEY, JSON.stringify(fields));
  return Object.assign(new Error(details), { code, details, metadata });
};

describe('gRPC status to HTTP problem', () => {
  test.each([
    [status.INVALID_ARGUMENT, 400],
    [status.NOT_FOUND, 404],
    [status.ALREADY_EXISTS, 409],
    [status.PERMISSION_DENIED, 403],
    [status.UNAUTHENTICATED, 401],
    [status.RESOURCE_EXHAUSTED, 429],
    [status.FAILED_PRECONDITION, 400],
    [status.ABORTED, 409],
    [status.UNIMPLEMENTED, 501],
    [status.UNAVAILABLE, 503],
    [status.DEADLINE_EXCEEDED, 504],
    [status.INTERNAL, 500],
    [status.UNKNOWN, 500],
  ])('gRPC code %i answers HTTP %i', (code, http) => {
    expect(toProblem(grpcError(code, 'x')).status).toBe(http);
  });

  test('field errors sent by a service come back as the problem errors', () => {
    const p = toProblem(grpcError(status.INVALID_ARGUMENT, 'subject: is required', [{ field: '/subject', message: 'is required' }]));
    expect(p.status).toBe(400);
    expect(p.errors).toEqual([{ field: '/subject', message: 'is required' }]);
  });

  test('5xx never exposes the internal detail', () => {
    const p = toProblem(grpcError(status.INTERNAL, 'E11000 duplicate key collection accord.secret'));
    expect(p.status).toBe(500);
    expect(p.detail ?? '').not.toContain('E11000');
  });

  test('a 4xx keeps the service detail, which services write for users', () => {
    expect(toProblem(grpcError(status.NOT_FOUND, 'No consent event with this id.')).detail).toBe('No consent event with this id.');
  });

  test('an oversized body is 413 and malformed JSON a 400 naming the body', () => {
    expect(toProblem(Object.assign(new Error('too large'), { type: 'entity.too.large', status: 413 })).status).toBe(413);
    const bad = toProblem(Object.assign(new Error('bad'), { type: 'entity.parse.failed', status: 400 }));
    expect(bad.status).toBe(400);
    expect(bad.errors[0]?.field).toBe('/');
  });

  test('an unknown thrown value is a generic 500', () => {
    const p = toProblem(new TypeError('cannot read properties of undefined (reading secret)'));
    expect(p.status).toBe(500);
    expect(p.detail ?? '').not.toContain('secret');
  });

  test('an HttpProblem passes through unchanged', () => {
    const p = HttpProblem.field('subject', 'is required');
    expect(toProblem(p)).toBe(p);
  });
});
