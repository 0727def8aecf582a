import { Metadata, status } from '@grpc/grpc-js';
import { asciiJson, fieldErrorsOf, InvalidArgumentError, toServiceError } from './errors';

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
