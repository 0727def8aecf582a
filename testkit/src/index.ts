/**
 * The one test kit of Accord, for the component tests (services/*\/test) and e2e/: services
 * started in-process, waiting, gRPC error assertions, test data, a webhook receiver, the
 * contract harness of the storage ports, and the one log switch (ACCORD_TEST_LOG).
 * Tests only: nothing under services/*\/src imports it.
 */
export { itWithBinary, testEnv } from '@accord/local-stack';
export * from './console';
export * from './data';
export * from './grpc';
export * from './log';
export * from './nats';
export * from './receiver';
export * from './services';
export * from './slow-start';
export * from './store-contract';
export * from './wait';
