export * from './merkle';
