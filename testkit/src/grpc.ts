import { status, type ServiceError, type UntypedServiceImplementation } from '@grpc/grpc-js';
import {
  fieldErrorsOf,
  implement,
  InvalidArgumentError,
  ServicePeers,
  startGrpcServer,
  type AsyncService,
  type FieldError,
  type RunningGrpcServer,
} from '@accord/common';
import { testLogger } from './log';

/** Awaits `p`, expects it to fail with gRPC status `code`, and answers the error. */
export async function expectGrpcError(p: Promise<unknown>, code: status): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    expect((err as ServiceError).code).toBe(code);
    return err as ServiceError;
  }
  throw new Error(`expected gRPC error ${status[code]}, got success`);
}

/** The field errors a service attached to an INVALID_ARGUMENT (`accord-field-errors`). */
export const fieldErrors = (err: ServiceError): FieldError[] => fieldErrorsOf(err);

/** Only the fields named by the field errors. */
export const fieldsOf = (err: ServiceError): string[] => fieldErrorsOf(err).map((f) => f.field);

/** The fields named by the InvalidArgumentError that `fn` throws (a domain rule, before gRPC); none when it passes. */
export function invalidFieldsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof InvalidArgumentError) return err.fields.map((f) => f.field);
    throw err;
  }
  return [];
}

/**
 * A stand-in gRPC service on a free loopback port implementing only the methods in `impl`
 * (e.g. a fake dataprocessing service behind consent).
 */
export async function startFakeGrpc(
  definition: object,
  name: string,
  impl: object,
): Promise<{ address: string; server: RunningGrpcServer; stop(): Promise<void> }> {
  const logger = testLogger(`fake-${name}`);
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [
      {
        definition: definition as never,
        implementation: implement(impl as AsyncService<UntypedServiceImplementation>, logger),
        name,
        // a stand-in answers anyone: what is under test is its caller
        access: Object.fromEntries(Object.keys(definition).map((method) => [method, { services: [], public: true }])),
      },
    ],
    auth: { peers: new ServicePeers(new Map()) },
  });
  return { address: `127.0.0.1:${server.port}`, server, stop: () => server.shutdown(1000) };
}
