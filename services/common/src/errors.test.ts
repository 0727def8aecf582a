import { Metadata, status } from '@grpc/grpc-js';
import { MongoBulkWriteError, MongoNetworkError, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { asciiJson, fieldErrorsOf, InvalidArgumentError, SERVER_UNAVAILABLE_KEY, toServiceError } from './errors';

describe('field errors in gRPC metadata', () => {
  // Found by schemathesis: a webhook with the event type "ü" made grpc-js throw while building the
  // INVALID_ARGUMENT status, so the gateway waited for its deadline and answered 504.
  it('carry messages that quote non-ASCII, control and astral characters to the gateway unchanged', () => {
    const message = 'unknown event type "ü\u0007\ud83d\ude00\u2028"';
    const err = toServiceError(InvalidArgumentError.field('/events/0', message), () => undefined);
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    const back = fieldErrorsOf({ ...err, metadata: err.metadata as Metadata } as never);
    expect(back).toEqual([{ field: '/events/0', message }]);
  });

  it('are encoded as printable ASCII only', () => {
    expect(asciiJson({ m: 'é\n' })).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(asciiJson({ m: 'é\n' }))).toEqual({ m: 'é\n' });
  });
});

describe('an unreachable database', () => {
  const down = [
    ['server selection timed out', new MongoServerSelectionError('Server selection timed out after 3000 ms', { type: 'Unknown', servers: new Map() } as never)],
    ['a refused connection', new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017')],
    // how insertMany/bulkWrite report it: a MongoBulkWriteError keeping the network error in errorResponse
    ['a bulk write cut off', new MongoBulkWriteError(new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017') as never, {} as never)],
  ] as const;
  it.each(down)('is UNAVAILABLE marked as sent by the server (not a logged 500, not retried by clients): %s', (_name, err) => {
    const onInternal = jest.fn();
    const out = toServiceError(err, onInternal);
    expect(out.code).toBe(status.UNAVAILABLE);
    expect(out.details).toBe('Database unavailable');
    expect(out.metadata?.get(SERVER_UNAVAILABLE_KEY)).toEqual(['database']);
    expect(onInternal).not.toHaveBeenCalled();
  });
  it('leaves other database errors internal (a duplicate key is a bug, not an outage)', () => {
    const onInternal = jest.fn();
    expect(toServiceError(new MongoServerError({ message: 'E11000 duplicate key', code: 11000 }), onInternal).code).toBe(status.INTERNAL);
    expect(onInternal).toHaveBeenCalledTimes(1);
  });
});
