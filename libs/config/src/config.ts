import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './retry-schedule.js';

/**
 * The one place that reads process.env. Every service validates its environment once at start-up
 * into an AppConfig and passes that object down; nothing else looks at the environment.
 */

const DEV_CREDENTIAL_SECRET = 'workcell-development-secret-not-for-production-use';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const anyHttpUrl = () =>
  z
    .string()
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'must be an http:// or https:// URL')
    .transform((u) => u.replace(/\/+$/, ''));
const httpUrl = (fallback: string) => anyHttpUrl().default(fallback);
const noQueryOrFragment = (u: string) => !/[?#]/.test(u);
/** The URLs a client or a mail recipient is sent to (links, Location, the reference page's server). */
const PUBLIC_URL_VARIABLES = ['V0_BASE_URL', 'V0_BASE_URL_ALT', 'V1_BASE_URL', 'INVITATION_ACCEPT_URL', 'SIGN_IN_URL'] as const;
/** Whether a URL's host is a loopback one (localhost, 127.0.0.0/8, [::1]): reachable from the machine itself only. */
function hasLoopbackHost(u: string): boolean {
  const host = new URL(u).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
}
const label = (fallback: string) =>
  z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,15}$/, 'must be 1-16 lowercase letters, digits or dashes, starting with a letter')
    .default(fallback);

export const environmentSchema = z
  .object({
    WORKCELL_ENV: z.enum(['development', 'test', 'production']).default('development'),
    DATABASE_URL: z
      .string()
      .url()
      .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// or postgresql:// URL')
      .default('postgresql://postgres@127.0.0.1:5432/workcell'),
    // A direct (session) connection to the same database, for what needs a session of its own: migrations and
    // LISTEN. Set it when DATABASE_URL goes through a transaction pooler (PgBouncer; docs/scale-out.md), which
    // hands each transaction any server connection. Defaults to DATABASE_URL.
    DATABASE_DIRECT_URL: z
      .string()
      .url()
      .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// or postgresql:// URL')
      .optional(),
    // The session connection of the worker's and api-v1's LISTEN alone (tests put a proxy in front of it).
    // Defaults to DATABASE_DIRECT_URL.
    DATABASE_LISTEN_URL: z
      .string()
      .url()
      .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// or postgresql:// URL')
      .optional(),
    // A diagnostic: a directory where each process appends every distinct SQL statement text it sends (JSON lines).
    // The test suite records the e2e run this way for the statement check (tools/statement-check,
    // docs/scale-out.md). Unset (the default) records nothing.
    DATABASE_STATEMENT_LOG: z.string().min(1).optional(),
    REDIS_URL: z
      .string()
      .url()
      .refine((u) => /^rediss?:\/\//.test(u), 'must be a redis:// or rediss:// URL')
      .default('redis://127.0.0.1:6379'),
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1-64 characters of letters, digits, ":", "_" or "-"')
      .default('wc'),
    // Redis Cluster mode: the cluster's seed nodes as `host:port,host:port,...` (the client discovers the rest).
    // Credentials and TLS still come from REDIS_URL, whose host is then unused. Unset: the one Redis at REDIS_URL.
    REDIS_CLUSTER_NODES: z
      .string()
      .max(2000)
      .regex(/^[A-Za-z0-9.:[\]-]+:\d{1,5}(,[A-Za-z0-9.:[\]-]+:\d{1,5})*$/, 'must be a comma-separated list of host:port')
      .optional(),
    HOST: z.string().min(1).default('127.0.0.1'),
    API_V0_PORT: port(3000),
    API_V1_PORT: port(3001),
    AUTH_PORT: port(3002),
    WORKER_PORT: port(3003),
    REGION: label('eu1'),
    CELL: label('c1'),
    // A v0 base address may carry a path prefix (api-v0 serves every route under it too), never a query or fragment.
    V0_BASE_URL: httpUrl('http://127.0.0.1:3000').refine(noQueryOrFragment, 'must not have a query or fragment'),
    V0_BASE_URL_ALT: httpUrl('http://localhost:3000').refine(noQueryOrFragment, 'must not have a query or fragment'),
    V1_BASE_URL: httpUrl('http://127.0.0.1:3001'),
    // Unset: the service on this machine at AUTH_PORT / WORKER_PORT, so moving a port moves its address too.
    AUTH_INTERNAL_URL: anyHttpUrl().optional(),
    WORKER_INTERNAL_URL: anyHttpUrl().optional(),
    CREDENTIAL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
    DEPENDENCY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
    // Bounds on what a client may hold open (docs/protocol.md "Dependency failures and server limits").
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(72_000),
    HTTP_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).max(1_000_000).default(256),
    V1_RATE_LIMIT_READ_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
    V1_RATE_LIMIT_WRITE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
    // Webhook delivery (docs/webhooks.md "Delivery"): per-attempt timeout, the retry schedule (the delays between
    // attempts, each scaled by a random factor 0.8–1.2; ≈ 2.8 days in all), the circuit breaker's threshold
    // (consecutive failed attempts after which a subscription's attempts are spaced by the schedule, one at a time).
    WEBHOOK_DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .default(DEFAULT_RETRY_SCHEDULE)
      .transform((value, issue) => parseRetrySchedule(value, issue)),
    WEBHOOK_BREAKER_THRESHOLD: z.coerce.number().int().min(1).max(1_000).default(5),
    // The relay is woken by each commit (LISTEN/NOTIFY); this poll is its safety net and the dispatcher's clock for
    // retries. Attempts in flight per worker, and per subscription or legacy v0 webhook across workers (fairness: one
    // receiver's share).
    WEBHOOK_RELAY_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(1_000),
    WEBHOOK_SUBSCRIPTION_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
    WEBHOOK_DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(64),
    // A PEM file of extra CA certificates receivers may present (a test receiver's self-signed one). Never in production.
    WEBHOOK_EXTRA_CA_FILE: z.string().min(1).optional(),
    // ---- files (docs/files.md): where file bytes live and how long transfer capabilities last ----
    // `local`: a directory (a compose volume); `s3`: an S3-compatible bucket reached with presigned URLs.
    FILE_STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
    FILE_STORAGE_DIR: z.string().min(1).default(join(tmpdir(), 'workcell-files')),
    FILE_S3_ENDPOINT: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'must be an http:// or https:// URL')
      .optional(),
    FILE_S3_REGION: z.string().min(1).default('us-east-1'),
    FILE_S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
      .optional(),
    FILE_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    FILE_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    // Path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers need.
    FILE_S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true'),
    // Upload and download capabilities: 15 and 5 minutes by default.
    FILE_UPLOAD_INTENT_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 3600)
      .default(900),
    FILE_DOWNLOAD_INTENT_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 3600)
      .default(300),
    // How often the worker expires reservations and removes orphaned bytes.
    FILE_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    // ---- end of files ----
    // ─── Mail (invitations; docs/invitations.md "E-mail") ───
    // `outbox` writes each message as an RFC 5322 .eml file into MAIL_OUTBOX_DIR (development and tests; a developer
    // opens them); `smtp` sends through MAIL_SMTP_URL. MAIL_FROM is the sender; INVITATION_ACCEPT_URL the page the
    // invitation's link opens (the auth service's GET /invitations/accept unless a front end serves it).
    MAIL_DRIVER: z.enum(['outbox', 'smtp']).default('outbox'),
    MAIL_OUTBOX_DIR: z.string().min(1).default('.workcell/mail-outbox'),
    MAIL_SMTP_URL: z
      .string()
      .url()
      .refine((u) => /^smtps?:\/\//.test(u), 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).max(320).default('Workcell <no-reply@workcell.invalid>'),
    INVITATION_ACCEPT_URL: httpUrl('http://127.0.0.1:3002/invitations/accept').refine(noQueryOrFragment, 'must not have a query or fragment'),
    // Sign-in by e-mail link (docs/authentication.md "Signing in"): the page the link opens (the auth service's
    // GET /sign-in), and how many links an address, and a client address, may ask for in 15 minutes.
    SIGN_IN_URL: httpUrl('http://127.0.0.1:3002/sign-in').refine(noQueryOrFragment, 'must not have a query or fragment'),
    SIGN_IN_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).max(1000).default(5),
    SIGN_IN_LIMIT_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(30),
    // ─── end mail ───
    // ─── Observability (docs/observability.md) ───
    // /metrics on every service's port (Prometheus text). With METRICS_TOKEN set a scrape must present it as a bearer
    // token; without, /metrics is open to whoever reaches the port, which must then not be reachable from outside.
    METRICS_ENABLED: z.enum(['true', 'false']).default('true'),
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(256).optional(),
    // OpenTelemetry traces over OTLP/HTTP (JSON) to `${OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces`; tracing is off when unset.
    OTEL_EXPORTER_OTLP_ENDPOINT: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'must be an http:// or https:// URL')
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
    // The resource's service.name; defaults to the service (api-v0, api-v1, auth, worker).
    OTEL_SERVICE_NAME: z.string().min(1).max(128).optional(),
    // Share of new traces sampled (parent-based: a request arriving with a sampled traceparent is always recorded).
    OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
    // Longest a finished span waits in the batch before it is exported.
    OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(10).max(60_000).default(5_000),
    // ─── end observability ───
  })
  .superRefine((env, ctx) => {
    // A shared development default is fine on a laptop; in production it would let anyone forge verifiers.
    if (env.WORKCELL_ENV === 'production' && env.CREDENTIAL_SECRET === undefined) {
      ctx.addIssue({ code: 'custom', path: ['CREDENTIAL_SECRET'], message: 'is required when WORKCELL_ENV=production' });
    }
    // Node checks the header bound inside the request bound; a larger one would never apply.
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({ code: 'custom', path: ['HTTP_HEADERS_TIMEOUT_MS'], message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS' });
    }
    // ---- files ----
    if (env.FILE_STORAGE_DRIVER === 's3' && env.FILE_S3_BUCKET === undefined) {
      ctx.addIssue({ code: 'custom', path: ['FILE_S3_BUCKET'], message: 'is required when FILE_STORAGE_DRIVER=s3' });
    }
    // ---- end of files ----
    // A public URL in clear text would carry sign-in links, tokens and bodies over the network unprotected. A
    // loopback host stays allowed: nothing outside the machine reaches it (a single-machine compose evaluation).
    if (env.WORKCELL_ENV === 'production') {
      for (const name of PUBLIC_URL_VARIABLES) {
        const url = env[name];
        if (url.startsWith('http://') && !hasLoopbackHost(url)) {
          ctx.addIssue({ code: 'custom', path: [name], message: 'must be an https:// URL when WORKCELL_ENV=production (http:// only to a loopback host)' });
        }
      }
    }
    if (env.WORKCELL_ENV === 'production' && env.WEBHOOK_EXTRA_CA_FILE !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['WEBHOOK_EXTRA_CA_FILE'], message: 'must not be set when WORKCELL_ENV=production' });
    }
    // Mail: the SMTP driver needs its server.
    if (env.MAIL_DRIVER === 'smtp' && env.MAIL_SMTP_URL === undefined) {
      ctx.addIssue({ code: 'custom', path: ['MAIL_SMTP_URL'], message: 'is required when MAIL_DRIVER=smtp' });
    }
  });

export type Environment = z.input<typeof environmentSchema>;

export interface AppConfig {
  readonly env: 'development' | 'test' | 'production';
  readonly host: string;
  /**
   * `url`: every statement and transaction (may be a transaction pooler); `directUrl`: a session of its own for
   * migrations (DATABASE_DIRECT_URL, else `url`); `listenUrl`: the session the worker and api-v1 LISTEN on
   * (DATABASE_LISTEN_URL, else `directUrl`); `statementLog`: DATABASE_STATEMENT_LOG, the directory every distinct
   * statement is recorded into, if any.
   */
  readonly database: { readonly url: string; readonly directUrl: string; readonly listenUrl: string; readonly statementLog: string | undefined };
  /** `clusterNodes`: Redis Cluster seed nodes (REDIS_CLUSTER_NODES); empty for the single Redis at `url`. */
  readonly redis: { readonly url: string; readonly prefix: string; readonly clusterNodes: readonly { readonly host: string; readonly port: number }[] };
  readonly ports: { readonly apiV0: number; readonly apiV1: number; readonly auth: number; readonly worker: number };
  readonly region: string;
  readonly cell: string;
  readonly baseUrls: { readonly v0: string; readonly v0Alt: string; readonly v1: string };
  readonly internalUrls: { readonly auth: string; readonly worker: string };
  readonly credentialSecret: string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly shutdownTimeoutMs: number;
  /** The budget a request has for all its dependency calls together (see dependency-budget.ts). */
  readonly dependencyTimeoutMs: number;
  /**
   * What a client may hold open: time to send the headers, to send the whole request, a connection's idle time
   * (between requests, or with nothing flowing), and concurrent connections per client address (0: no limit).
   */
  readonly http: { readonly headersTimeoutMs: number; readonly requestTimeoutMs: number; readonly idleTimeoutMs: number; readonly maxConnectionsPerClient: number };
  /** v1 requests per minute per credential (or per client address without one), by operation class. */
  readonly v1RateLimits: { readonly read: number; readonly write: number };
  /**
   * Outgoing webhook deliveries (docs/webhooks.md "Delivery"): the attempt timeout, the retry schedule (delays in
   * ms between attempts: attempts = its length + 1), the breaker threshold, the extra trusted CA file
   * (non-production), the relay's poll interval, attempts in flight per worker and per subscription.
   */
  readonly webhooks: {
    readonly timeoutMs: number;
    readonly retryScheduleMs: readonly number[];
    readonly breakerThreshold: number;
    readonly extraCaFile: string | null;
    readonly relayPollMs: number;
    readonly deliveryConcurrency: number;
    readonly subscriptionConcurrency: number;
  };
  /**
   * Outgoing mail (invitations): the driver (`outbox`: .eml files in `outboxDir`; `smtp`: `smtpUrl`), the sender, and
   * the address the invitation's acceptance link points to.
   */
  readonly mail: {
    readonly driver: 'outbox' | 'smtp';
    readonly outboxDir: string;
    readonly smtpUrl: string | null;
    readonly from: string;
    readonly invitationAcceptUrl: string;
    /** The sign-in page the e-mailed link opens, and the sign-in requests allowed per address and per client in 15 minutes. */
    readonly signInUrl: string;
    readonly signInLimitPerAddress: number;
    readonly signInLimitPerClient: number;
  };
  /** Files (docs/files.md): the storage driver and its settings, the capabilities' lifetimes, the worker's sweep interval. */
  readonly files: FilesConfig;
  /** Metrics and traces (docs/observability.md). */
  readonly telemetry: TelemetryConfig;
}

export interface TelemetryConfig {
  readonly metricsEnabled: boolean;
  /** The bearer token a scrape of /metrics must present; null: /metrics is open on the service's port. */
  readonly metricsToken: string | null;
  /** OTLP/HTTP base address; null: tracing is off. */
  readonly otlpEndpoint: string | null;
  /** null: the service's own name. */
  readonly serviceName: string | null;
  readonly sampleRatio: number;
  readonly exportDelayMs: number;
}

export interface FileStorageS3Config {
  readonly endpoint: string | null;
  readonly region: string;
  readonly bucket: string;
  /** null: the SDK's default credential chain. */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
  readonly forcePathStyle: boolean;
}

export interface FilesConfig {
  readonly driver: 'local' | 's3';
  /** The local driver's directory. */
  readonly dir: string;
  readonly s3: FileStorageS3Config | null;
  readonly uploadTtlMs: number;
  readonly downloadTtlMs: number;
  readonly sweepIntervalMs: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

/** Validates an environment (process.env by default) into a frozen AppConfig; throws ConfigError naming the first bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings count as unset, as shells and compose files often export VAR= for "no value".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = environmentSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    const reason = issue.code === 'invalid_type' && cleaned[variable] === undefined ? 'is required' : issue.message;
    throw new ConfigError(variable, reason.startsWith('is ') || reason.startsWith('must ') ? reason : `is invalid: ${reason}`);
  }
  const e = parsed.data;
  return Object.freeze({
    env: e.WORKCELL_ENV,
    host: e.HOST,
    database: Object.freeze({
      url: e.DATABASE_URL,
      directUrl: e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
      listenUrl: e.DATABASE_LISTEN_URL ?? e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
      statementLog: e.DATABASE_STATEMENT_LOG,
    }),
    redis: Object.freeze({ url: e.REDIS_URL, prefix: e.REDIS_PREFIX, clusterNodes: Object.freeze(clusterNodesOf(e.REDIS_CLUSTER_NODES)) }),
    ports: Object.freeze({ apiV0: e.API_V0_PORT, apiV1: e.API_V1_PORT, auth: e.AUTH_PORT, worker: e.WORKER_PORT }),
    region: e.REGION,
    cell: e.CELL,
    baseUrls: Object.freeze({ v0: e.V0_BASE_URL, v0Alt: e.V0_BASE_URL_ALT, v1: e.V1_BASE_URL }),
    internalUrls: Object.freeze({ auth: e.AUTH_INTERNAL_URL ?? `http://127.0.0.1:${e.AUTH_PORT}`, worker: e.WORKER_INTERNAL_URL ?? `http://127.0.0.1:${e.WORKER_PORT}` }),
    credentialSecret: e.CREDENTIAL_SECRET ?? DEV_CREDENTIAL_SECRET,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    dependencyTimeoutMs: e.DEPENDENCY_TIMEOUT_MS,
    http: Object.freeze({
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
      maxConnectionsPerClient: e.HTTP_MAX_CONNECTIONS_PER_CLIENT,
    }),
    v1RateLimits: Object.freeze({ read: e.V1_RATE_LIMIT_READ_PER_MINUTE, write: e.V1_RATE_LIMIT_WRITE_PER_MINUTE }),
    webhooks: Object.freeze({
      timeoutMs: e.WEBHOOK_DELIVERY_TIMEOUT_MS,
      retryScheduleMs: Object.freeze(e.WEBHOOK_RETRY_SCHEDULE),
      breakerThreshold: e.WEBHOOK_BREAKER_THRESHOLD,
      extraCaFile: e.WEBHOOK_EXTRA_CA_FILE ?? null,
      relayPollMs: e.WEBHOOK_RELAY_POLL_MS,
      deliveryConcurrency: e.WEBHOOK_DELIVERY_CONCURRENCY,
      subscriptionConcurrency: e.WEBHOOK_SUBSCRIPTION_CONCURRENCY,
    }),
    files: Object.freeze({
      driver: e.FILE_STORAGE_DRIVER,
      dir: e.FILE_STORAGE_DIR,
      s3:
        e.FILE_S3_BUCKET === undefined
          ? null
          : Object.freeze({
              endpoint: e.FILE_S3_ENDPOINT ?? null,
              region: e.FILE_S3_REGION,
              bucket: e.FILE_S3_BUCKET,
              credentials:
                e.FILE_S3_ACCESS_KEY_ID !== undefined && e.FILE_S3_SECRET_ACCESS_KEY !== undefined
                  ? Object.freeze({ accessKeyId: e.FILE_S3_ACCESS_KEY_ID, secretAccessKey: e.FILE_S3_SECRET_ACCESS_KEY })
                  : null,
              forcePathStyle: e.FILE_S3_FORCE_PATH_STYLE === 'true',
            }),
      uploadTtlMs: e.FILE_UPLOAD_INTENT_TTL_SECONDS * 1000,
      downloadTtlMs: e.FILE_DOWNLOAD_INTENT_TTL_SECONDS * 1000,
      sweepIntervalMs: e.FILE_SWEEP_INTERVAL_MS,
    }),
    mail: Object.freeze({
      driver: e.MAIL_DRIVER,
      outboxDir: e.MAIL_OUTBOX_DIR,
      smtpUrl: e.MAIL_SMTP_URL ?? null,
      from: e.MAIL_FROM,
      invitationAcceptUrl: e.INVITATION_ACCEPT_URL,
      signInUrl: e.SIGN_IN_URL,
      signInLimitPerAddress: e.SIGN_IN_LIMIT_PER_ADDRESS,
      signInLimitPerClient: e.SIGN_IN_LIMIT_PER_CLIENT,
    }),
    telemetry: Object.freeze({
      metricsEnabled: e.METRICS_ENABLED === 'true',
      metricsToken: e.METRICS_TOKEN ?? null,
      otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
      serviceName: e.OTEL_SERVICE_NAME ?? null,
      sampleRatio: e.OTEL_TRACES_SAMPLER_ARG,
      exportDelayMs: e.OTEL_BSP_SCHEDULE_DELAY,
    }),
  });
}

/** For process entry points: load the config or print one line naming the variable and exit non-zero. */
export function loadConfigOrExit(source: Record<string, string | undefined> = process.env): AppConfig {
  try {
    return loadConfig(source);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

function clusterNodesOf(list: string | undefined): { host: string; port: number }[] {
  if (list === undefined) return [];
  return list.split(',').map((node) => {
    const at = node.lastIndexOf(':');
    return Object.freeze({ host: node.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(node.slice(at + 1)) });
  });
}

/** Builds a config for tests and tools from defaults plus overrides, without looking at process.env. */
export function configFrom(overrides: Record<string, string | undefined> = {}): AppConfig {
  return loadConfig({ WORKCELL_ENV: 'test', ...overrides });
}
