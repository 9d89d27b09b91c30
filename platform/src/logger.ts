import { pino } from 'pino';

export type Logger = pino.Logger;

export function createLogger(level = process.env.LOG_LEVEL ?? 'info', name = 'mrn'): Logger {
  return pino({ name, level, redact: ['req.headers.authorization', '*.password', '*.jwt'] });
}
