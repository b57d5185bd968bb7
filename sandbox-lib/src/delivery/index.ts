export * from './schemas.ts';
export * from './relay.ts';
