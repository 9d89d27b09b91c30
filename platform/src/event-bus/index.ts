export * from './kafkajs-event-bus.ts';
export * from './port.ts';
export * from './relay.ts';
export * from './unpublished.ts';
export * from './wire.ts';
