// The message contracts of the REST surface: zod schemas, enums and limits, one source for the
// OpenAPI document (generated), the gateway's request validation and the services' validators.
// See docs/contracts.md.
export * as consent from './consent';
export * as console from './console';
export * as dataprocessing from './dataprocessing';
export * as dpv from './dpv';
export * as oauth from './oauth';
export * as regimes from './regimes';
export * as sessions from './sessions';
export * as webhooks from './webhooks';
export { componentSchemas, jsonSchemaOf, longerThan, type JsonSchema } from './json-schema';
export * as links from './links';
