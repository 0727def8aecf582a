export * from './demo';
export * from './infra';
export * from './launch';
export * from './processes';
export * from './secrets';
export * from './stack-env';
export * from './testing';
