export * from './infra';
export * from './processes';
export * from './secrets';
export * from './stack-env';
export * from './testing';
