import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { AppConfig } from '@workcell/config';

export type { Logger };

/**
 * Paths that may carry secrets. Request lines are logged from chosen fields only (never headers or raw
 * URLs, which can hold calendar tokens); redaction is the second line of defence for anything logged ad hoc.
 */
export const REDACTED_PATHS = [
  'authorization',
  '*.authorization',
  '*.headers.authorization',
  '*.headers.cookie',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'credential',
  '*.credential',
];

/** Structured JSON logs: one object per line, with the service, region and cell on every line. */
export function createLogger(config: AppConfig, service: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { service, region: config.region, cell: config.cell },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}

/** Routes Nest's own framework logs into the same JSON stream. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
  fatal(message: unknown, context?: string) {
    this.logger.fatal({ context }, String(message));
  }
}
