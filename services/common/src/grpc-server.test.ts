import type { sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { serviceName, type CallContext, type Handlers, type KnownKeys } from './grpc-server';

// A generated server interface: named unary methods plus grpc-js's string index signature.
interface GreeterServer extends UntypedServiceImplementation {
  greet: (call: ServerUnaryCall<{ name: string }, { text: string }>, cb: sendUnaryData<{ text: string }>) => void;
}

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const holds = <T extends true>(): T => true as T;

describe('handler types', () => {
  it('KnownKeys keeps the named members and drops the string index signature', () => {
    expect(holds<Equal<keyof KnownKeys<GreeterServer>, 'greet'>>()).toBe(true);
  });

  it('Handlers turns each unary method into an async function of its request', async () => {
    expect(holds<Equal<Handlers<GreeterServer>, { greet: (request: { name: string }, ctx: CallContext) => Promise<{ text: string }> }>>()).toBe(true);
    const impl: Handlers<GreeterServer> = { greet: async (req) => ({ text: `hello ${req.name}` }) };
    await expect(impl.greet({ name: 'Ada' }, {} as CallContext)).resolves.toEqual({ text: 'hello Ada' });
  });
});

describe('serviceName', () => {
  const method = (path: string) => ({ path, requestStream: false, responseStream: false }) as unknown as ServiceDefinition[string];

  it('is the fully qualified name its methods are called under (what health and reflection report)', () => {
    const definition = { create: method('/accord.consent.v1.ConsentService/Create'), get: method('/accord.consent.v1.ConsentService/Get') };
    expect(serviceName(definition as ServiceDefinition)).toBe('accord.consent.v1.ConsentService');
  });

  it('refuses a definition without methods rather than register a nameless service', () => {
    expect(() => serviceName({} as ServiceDefinition)).toThrow(/without methods/);
  });
});
