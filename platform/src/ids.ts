import { randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
