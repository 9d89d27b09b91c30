export * from './reader.ts';
export * from './writer.ts';
