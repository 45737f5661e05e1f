import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { AppConfig } from '@workcell/config';
import { activeTraceIds } from '@workcell/telemetry';

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

/**
 * Standard output, written in batches: a line waits until 4 KB are pending or at most LOG_FLUSH_MS, and what is
 * pending is written synchronously when the process exits (pino's exit hook). Writing each request's line on its
 * own cost a read-heavy API about 5% of its CPU in write calls (issue 11); a batch of 4 KB holds about a dozen lines.
 */
export const LOG_FLUSH_MS = 100;
export function logDestination(fd = 1): DestinationStream {
  return pino.destination({ fd, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_MS });
}

/** Structured JSON logs: one object per line, with the service, region and cell on every line. */
export function createLogger(config: AppConfig, service: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { service, region: config.region, cell: config.cell },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      // Lines written inside a traced request or job carry its trace_id and span_id (nothing when tracing is off).
      // (A new object each time: pino merges the line's own fields into what mixin returns.)
      mixin: () => activeTraceIds() ?? {},
    },
    destination ?? logDestination(),
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
