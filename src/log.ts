// The process logger: pino JSON lines, static messages with data in fields, secrets redacted by path.

import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'apiKey', 'key', 'text'],
      censor: '[redacted]',
    },
  });
}
