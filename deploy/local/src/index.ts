export * from './infra';
export * from './processes';
export * from './testing';
