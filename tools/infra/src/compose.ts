/**
 * Static checks for the container definitions at the repository root (docker-compose.yml, Dockerfile,
 * .dockerignore). No Docker engine is needed: the compose file is validated against the Compose
 * Specification schema and dclint, and its structure against what the platform needs.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parseDocument } from 'yaml';

/** The repository root, found from this module's own location (tools/infra/dist/compose.js). */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The four services, their ports and the variable each one reads its port from (libs/config). */
export const APPS = {
  'api-v0': { port: 3000, portVariable: 'API_V0_PORT' },
  'api-v1': { port: 3001, portVariable: 'API_V1_PORT' },
  auth: { port: 3002, portVariable: 'AUTH_PORT' },
  worker: { port: 3003, portVariable: 'WORKER_PORT' },
} as const;
export type AppName = keyof typeof APPS;
export const APP_NAMES = Object.keys(APPS) as AppName[];

/** The API services wait for auth to be healthy; everything waits for the data stores and the migration. */
const API_APPS: readonly AppName[] = ['api-v0', 'api-v1'];
const BASE_DEPENDENCIES = {
  postgres: 'service_healthy',
  pgbouncer: 'service_healthy',
  redis: 'service_healthy',
  migrate: 'service_completed_successfully',
} as const;

/** Fallback used by libs/config when SHUTDOWN_TIMEOUT_MS is unset. */
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const require = createRequire(import.meta.url);
const dclintDirectory = dirname(require.resolve('dclint/package.json'));

// ---------------------------------------------------------------------------------------------------------
// YAML and the Compose Specification schema

export interface ParsedCompose {
  readonly document: unknown;
  readonly errors: string[];
}

/**
 * Parses a compose file as YAML 1.2 (as Compose v2 and dclint do), resolving merge keys (`<<`) as Compose
 * does and rejecting duplicate keys. (YAML 1.1 readers such as docker-compose 1.x also turn an unquoted
 * `no` into false: quote such values; the compose CLI check catches them when docker-compose is installed.)
 */
export function parseCompose(text: string): ParsedCompose {
  const document = parseDocument(text, { merge: true, uniqueKeys: true, prettyErrors: true });
  const errors = [...document.errors, ...document.warnings].map((e) => e.message);
  return { document: errors.length === 0 ? document.toJS({ maxAliasCount: 1000 }) : undefined, errors };
}

let composeValidator: ValidateFunction | undefined;

function compileComposeSchema(): ValidateFunction {
  const schema = JSON.parse(readFileSync(join(dclintDirectory, 'schemas', 'compose.schema.json'), 'utf8')) as Json;
  // The file is a draft-07 schema but names its meta-schema with an https URL Ajv does not register.
  schema.$schema = 'http://json-schema.org/draft-07/schema#';
  // strict: false because the upstream schema uses annotations Ajv's strict mode rejects (as dclint does).
  const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

function describeSchemaError(error: ErrorObject): string {
  return `${error.instancePath || '/'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`;
}

/** Validates a parsed compose document against the Compose Specification JSON schema shipped by dclint. */
export function composeSchemaErrors(document: unknown): string[] {
  composeValidator ??= compileComposeSchema();
  if (composeValidator(document)) return [];
  return (composeValidator.errors ?? []).map(describeSchemaError);
}

/** Parses and validates compose file text; returns YAML and schema errors (empty when valid). */
export function validateComposeText(text: string): string[] {
  const { document, errors } = parseCompose(text);
  return errors.length > 0 ? errors : composeSchemaErrors(document);
}

// ---------------------------------------------------------------------------------------------------------
// dclint

export interface LintReport {
  readonly errors: number;
  readonly warnings: number;
  readonly messages: string[];
  readonly exitCode: number | null;
}

interface DclintResult {
  errorCount: number;
  warningCount: number;
  messages: { rule: string; type: string; message: string; line: number }[];
}

/** Runs the dclint command line (with the repository's configuration, if any) on one compose file. */
export function runDclint(file: string): LintReport {
  const pkg = JSON.parse(readFileSync(join(dclintDirectory, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const bin = join(dclintDirectory, pkg.bin.dclint ?? 'bin/dclint.cjs');
  const run = spawnSync(process.execPath, [bin, file, '--formatter', 'json', '--color', 'false'], {
    cwd: repositoryRoot,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.error) throw run.error;
  const start = run.stdout.indexOf('[');
  if (start < 0) throw new Error(`dclint printed no JSON report (exit ${run.status}): ${run.stdout}${run.stderr}`);
  const results = JSON.parse(run.stdout.slice(start)) as DclintResult[];
  return {
    errors: results.reduce((n, r) => n + r.errorCount, 0),
    warnings: results.reduce((n, r) => n + r.warningCount, 0),
    messages: results.flatMap((r) => r.messages.map((m) => `${m.line}: ${m.type} ${m.rule}: ${m.message}`)),
    exitCode: run.status,
  };
}

// ---------------------------------------------------------------------------------------------------------
// A compose command line, when one is installed

/**
 * The first compose implementation that runs here without an engine: the `docker compose` plugin, then the
 * standalone `docker-compose` (v2, or Debian's 1.29). Undefined when neither is installed.
 */
export function findComposeCommand(): string[] | undefined {
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    const [file, ...args] = command as [string, ...string[]];
    const probe = spawnSync(file, [...args, 'version'], { encoding: 'utf8', timeout: 30_000 });
    if (!probe.error && probe.status === 0) return command;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Interpolation and durations, as Compose reads them

const INTERPOLATION = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** Compose's variable interpolation (`$V`, `${V}`, `${V:-default}`, `${V-default}`, `${V:?error}`, `${V?error}`, `$$`). */
export function interpolate(value: string, variables: Readonly<Record<string, string | undefined>>): string {
  return value.replace(INTERPOLATION, (match, braced?: string, operator?: string, word?: string, bare?: string) => {
    if (match === '$$') return '$';
    const name = braced ?? bare ?? '';
    const current = variables[name];
    const unset = current === undefined || (operator?.startsWith(':') === true && current === '');
    if (operator === undefined) return current ?? '';
    if (!unset) return current ?? '';
    if (operator.endsWith('-')) return word ?? '';
    throw new Error(`${name}: ${word || 'required variable is not set'}`);
  });
}

/** Names of the variables a value reads through a required `${NAME:?...}` (or `${NAME?...}`) reference. */
export function requiredVariables(value: string): string[] {
  return [...value.matchAll(INTERPOLATION)].flatMap((m) => (m[1] && m[2]?.endsWith('?') ? [m[1]] : []));
}

const DURATION_PART = /(\d+(?:\.\d+)?)(h|ms|m|s|us|ns)/gy;
const DURATION_UNITS_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, ns: 0.000001 };

/** A Compose duration (`20s`, `1m30s`, `500ms`) in milliseconds; NaN when it is not one. */
export function durationMs(value: unknown): number {
  if (typeof value !== 'string' || value === '') return Number.NaN;
  DURATION_PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (const match of value.matchAll(DURATION_PART)) {
    const [, amount = '', unit = ''] = match;
    total += Number(amount) * (DURATION_UNITS_MS[unit] ?? Number.NaN);
    consumed += match[0].length;
  }
  return consumed === value.length ? total : Number.NaN;
}

// ---------------------------------------------------------------------------------------------------------
// The structure the platform needs

function listOrDict(value: unknown): Json | undefined {
  if (isRecord(value)) return value;
  if (!Array.isArray(value)) return undefined;
  return Object.fromEntries(
    value.map((entry) => {
      const text = String(entry);
      const at = text.indexOf('=');
      return at < 0 ? [text, null] : [text.slice(0, at), text.slice(at + 1)];
    }),
  );
}

function commandText(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(' ') : typeof value === 'string' ? value : '';
}

/** The container port of a `ports` entry (short `[ip:]published:target[/proto]` or long syntax). */
function targetPort(entry: unknown): number {
  if (isRecord(entry)) return Number(entry.target);
  const mapping = String(entry).split('/')[0] ?? '';
  return Number(mapping.slice(mapping.lastIndexOf(':') + 1));
}

/** Environment keys whose values are credentials and must come from the operator's environment. */
const SECRET_KEY = /SECRET|PASSWORD|PASSWD|TOKEN|PRIVATE_KEY|API_KEY/i;
/** `scheme://user:password@` with a password that is not a required interpolation. */
const URL_WITH_LITERAL_PASSWORD = /:\/\/[^/\s:@]*:(?!\$\{[A-Za-z_][A-Za-z0-9_]*:?\?[^}]*\}@)[^@\s/]+@/;

export interface ComposeExpectations {
  /** Every variable libs/config understands; the services' environment may only set these. */
  readonly knownVariables: readonly string[];
}

/** Problems with the compose document's structure (empty when it has what the platform needs). */
export function composeProblems(document: unknown, expectations: ComposeExpectations): string[] {
  const problems: string[] = [];
  const problem = (message: string) => problems.push(message);
  if (!isRecord(document)) return ['the compose file is not a mapping'];
  if ('version' in document) problem('top-level `version:` is obsolete in the Compose Specification');
  const services = isRecord(document.services) ? document.services : {};
  const volumes = isRecord(document.volumes) ? document.volumes : {};
  const service = (name: string): Json => (isRecord(services[name]) ? services[name] : {});

  for (const name of [...APP_NAMES, 'migrate', 'postgres', 'pgbouncer', 'redis']) {
    if (!isRecord(services[name])) problem(`service ${name} is missing`);
  }

  // Literal secrets, anywhere.
  for (const [name, definition] of Object.entries(services)) {
    const environment = isRecord(definition) ? listOrDict(definition.environment) : undefined;
    for (const [key, value] of Object.entries(environment ?? {})) {
      const text = value === null || value === undefined ? '' : String(value);
      // A secret comes from the operator: required (`${VAR:?message}`), or optional with nothing in its place
      // (`${VAR:-}`, e.g. an S3 key pair the SDK can also find elsewhere); never a literal or a default value.
      if (SECRET_KEY.test(key) && !/^\$\{([A-Za-z_][A-Za-z0-9_]*):?\?[^}]*\}$/.test(text) && !new RegExp(`^\\$\\{${key}:-\\}$`).test(text)) {
        problem(`${name}: ${key} must be exactly \${VARIABLE:?message} or \${${key}:-} (taken from the operator, no default)`);
      }
      if (URL_WITH_LITERAL_PASSWORD.test(text)) problem(`${name}: ${key} embeds a literal password`);
    }
  }

  const buildOf = (name: string) => (isRecord(service(name).build) ? (service(name).build as Json) : undefined);
  const appEnvironments: Json[] = [];
  for (const app of [...APP_NAMES, 'migrate'] as const) {
    const definition = service(app);
    const image = app === 'migrate' ? 'worker' : app;
    const build = buildOf(app);
    if (!build) {
      problem(`${app}: must be built from the repository's Dockerfile (build: { context, dockerfile, args })`);
    } else {
      if (build.context !== '.') problem(`${app}: build.context must be "." (the repository root)`);
      if (build.dockerfile !== 'Dockerfile') problem(`${app}: build.dockerfile must be "Dockerfile"`);
      if (listOrDict(build.args)?.APP !== image) problem(`${app}: build.args.APP must be "${image}"`);
    }
    if ('image' in definition) problem(`${app}: set build, not image (the image is built from the Dockerfile)`);
    const environment = listOrDict(definition.environment);
    if (!environment) {
      problem(`${app}: environment is missing`);
    } else {
      appEnvironments.push(environment);
      for (const key of Object.keys(environment)) {
        if (!expectations.knownVariables.includes(key)) problem(`${app}: ${key} is not a libs/config variable`);
      }
    }
  }
  const [firstEnvironment, ...otherEnvironments] = appEnvironments;
  if (otherEnvironments.some((e) => JSON.stringify(e) !== JSON.stringify(firstEnvironment))) {
    problem('the four services and migrate must share one environment (the x-environment anchor)');
  }
  const shared = firstEnvironment ?? {};
  // Every variable libs/config reads reaches the services, so an operator can set any documented one through
  // compose (`KEY: ${KEY:-}`: an empty value counts as unset, so libs/config's default applies).
  const missing = expectations.knownVariables.filter((key) => !(key in shared));
  if (missing.length > 0) problem(`environment: passes no value for ${missing.join(', ')} (every libs/config variable must pass through)`);
  const expectedValues: Record<string, string> = {
    HOST: '0.0.0.0',
    AUTH_INTERNAL_URL: `http://auth:${APPS.auth.port}`,
    WORKER_INTERNAL_URL: `http://worker:${APPS.worker.port}`,
  };
  for (const { port, portVariable } of Object.values(APPS)) expectedValues[portVariable] = String(port);
  for (const [key, value] of Object.entries(expectedValues)) {
    if (String(shared[key]) !== value) problem(`environment: ${key} must be ${value}`);
  }
  if (!requiredVariables(String(shared.CREDENTIAL_SECRET ?? '')).includes('CREDENTIAL_SECRET')) {
    problem('environment: CREDENTIAL_SECRET must be ${CREDENTIAL_SECRET:?...}');
  }
  const shutdownTimeoutMs = shared.SHUTDOWN_TIMEOUT_MS === undefined ? DEFAULT_SHUTDOWN_TIMEOUT_MS : Number(interpolate(String(shared.SHUTDOWN_TIMEOUT_MS), {}));

  for (const app of APP_NAMES) {
    const definition = service(app);
    const { port } = APPS[app];
    const healthcheck = isRecord(definition.healthcheck) ? definition.healthcheck : {};
    const test = commandText(healthcheck.test);
    if (healthcheck.disable === true || !/\/(readyz|healthz)\b/.test(test) || !test.includes(`:${port}/`)) {
      problem(`${app}: healthcheck must probe /readyz (or /healthz) on port ${port}`);
    }
    const dependsOn = isRecord(definition.depends_on) ? definition.depends_on : {};
    const expected: Record<string, string> = { ...BASE_DEPENDENCIES };
    if (API_APPS.includes(app)) expected.auth = 'service_healthy';
    for (const [dependency, condition] of Object.entries(expected)) {
      const actual = isRecord(dependsOn[dependency]) ? dependsOn[dependency].condition : undefined;
      if (actual !== condition) problem(`${app}: depends_on.${dependency}.condition must be ${condition}`);
    }
    if (!['always', 'unless-stopped', 'on-failure'].includes(String(definition.restart))) {
      problem(`${app}: restart must be always, unless-stopped or on-failure`);
    }
    const ports = Array.isArray(definition.ports) ? definition.ports : [];
    if (!ports.some((entry) => targetPort(entry) === port)) problem(`${app}: container port ${port} must be published`);
    const grace = durationMs(definition.stop_grace_period);
    if (!(grace > shutdownTimeoutMs)) {
      problem(`${app}: stop_grace_period (${String(definition.stop_grace_period)}) must exceed SHUTDOWN_TIMEOUT_MS (${shutdownTimeoutMs} ms)`);
    }
  }

  const migrate = service('migrate');
  if (!commandText(migrate.command).includes('tools/db/dist/migrate.js')) {
    problem('migrate: command must run node tools/db/dist/migrate.js');
  }
  if (migrate.restart !== 'no') problem('migrate: restart must be "no" (one-shot)');
  if ('ports' in migrate) problem('migrate: must not publish ports');
  const migrateDependsOn = isRecord(migrate.depends_on) ? migrate.depends_on : {};
  if (!isRecord(migrateDependsOn.postgres) || migrateDependsOn.postgres.condition !== 'service_healthy') {
    problem('migrate: depends_on.postgres.condition must be service_healthy');
  }

  const postgres = service('postgres');
  if (!/^postgres:15(\b|$)/.test(String(postgres.image))) problem('postgres: image must be postgres:15');
  if (!commandText(isRecord(postgres.healthcheck) ? postgres.healthcheck.test : undefined).includes('pg_isready')) {
    problem('postgres: healthcheck must use pg_isready');
  }
  const dataVolume = (Array.isArray(postgres.volumes) ? postgres.volumes : [])
    .map((v) => (isRecord(v) ? `${String(v.source)}:${String(v.target)}` : String(v)))
    .find((v) => v.split(':')[1] === '/var/lib/postgresql/data');
  const volumeName = dataVolume?.split(':')[0];
  if (volumeName === undefined || !(volumeName in volumes)) {
    problem('postgres: /var/lib/postgresql/data must be a named volume declared under top-level volumes');
  }
  if (!requiredVariables(String(listOrDict(postgres.environment)?.POSTGRES_PASSWORD ?? '')).includes('POSTGRES_PASSWORD')) {
    problem('postgres: POSTGRES_PASSWORD must be ${POSTGRES_PASSWORD:?...}');
  }

  const redis = service('redis');
  if (!/^redis:7(\b|$)/.test(String(redis.image))) problem('redis: image must be redis:7');
  const redisCheck = commandText(isRecord(redis.healthcheck) ? redis.healthcheck.test : undefined);
  if (!redisCheck.includes('redis-cli') || !redisCheck.includes('ping')) problem('redis: healthcheck must use redis-cli ping');

  return problems;
}

// ---------------------------------------------------------------------------------------------------------
// Dockerfile

export interface Instruction {
  readonly keyword: string;
  readonly args: string;
  readonly line: number;
}

export interface Stage {
  readonly name: string | undefined;
  readonly base: string;
  readonly instructions: Instruction[];
}

export interface Dockerfile {
  /** ARG instructions before the first FROM. */
  readonly globalArgs: Instruction[];
  readonly stages: Stage[];
}

/** Splits a Dockerfile into instructions (joining `\` continuations, dropping comments) and stages. */
export function parseDockerfile(text: string): Dockerfile {
  const instructions: Instruction[] = [];
  let pending = '';
  let startLine = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim();
    if (pending === '' && (trimmed === '' || trimmed.startsWith('#'))) return;
    if (pending !== '' && trimmed.startsWith('#')) return; // comment lines inside a continuation
    if (pending === '') startLine = index + 1;
    if (trimmed.endsWith('\\')) {
      pending += `${trimmed.slice(0, -1).trim()} `;
      return;
    }
    const full = (pending + trimmed).trim();
    pending = '';
    const keyword = full.split(/\s+/, 1)[0] ?? '';
    instructions.push({ keyword: keyword.toUpperCase(), args: full.slice(keyword.length).trim(), line: startLine });
  });
  const globalArgs: Instruction[] = [];
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    const current = stages.at(-1);
    if (instruction.keyword === 'FROM') {
      const parts = instruction.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      const as = parts.findIndex((p) => p.toUpperCase() === 'AS');
      stages.push({ name: as >= 0 ? parts[as + 1] : undefined, base: parts[0] ?? '', instructions: [] });
    } else if (current) {
      current.instructions.push(instruction);
    } else if (instruction.keyword === 'ARG') {
      globalArgs.push(instruction);
    }
  }
  return { globalArgs, stages };
}

/** KEY=value pairs of ENV/ARG instructions (the `ENV KEY value` form gives one pair). */
export function assignments(args: string): Record<string, string> {
  if (!args.includes('=')) {
    const [key = '', ...value] = args.split(/\s+/);
    return { [key]: value.join(' ') };
  }
  const pairs: Record<string, string> = {};
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)) {
    const [, key = '', value = ''] = match;
    pairs[key] = value.startsWith('"') ? (JSON.parse(value) as string) : value;
  }
  return pairs;
}

/** The stage and its ancestors (by stage name), nearest first. */
function lineage(file: Dockerfile, stage: Stage): Stage[] {
  const chain: Stage[] = [];
  let current: Stage | undefined = stage;
  while (current && !chain.includes(current)) {
    chain.push(current);
    const base = current.base.toLowerCase();
    current = file.stages.find((s) => s.name?.toLowerCase() === base);
  }
  return chain;
}

/** The last value an instruction sets along a stage's lineage (e.g. the effective USER). */
function effective(file: Dockerfile, stage: Stage, keyword: string): Instruction | undefined {
  for (const ancestor of lineage(file, stage)) {
    const found = ancestor.instructions.filter((i) => i.keyword === keyword).at(-1);
    if (found) return found;
  }
  return undefined;
}

function effectiveEnv(file: Dockerfile, stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const ancestor of lineage(file, stage).reverse()) {
    for (const i of ancestor.instructions) if (i.keyword === 'ENV') Object.assign(env, assignments(i.args));
  }
  return env;
}

/** The shell script of the RUN that validates APP (a `case "${APP}" in ...` statement), if any. */
export function appValidationScript(file: Dockerfile): string | undefined {
  return file.stages.flatMap((s) => s.instructions).find((i) => i.keyword === 'RUN' && /case\s+"?\$\{?APP\}?"?\s+in/.test(i.args))?.args;
}

/** The app names the validation accepts: the alternatives of the case statement's first branch. */
export function acceptedApps(script: string): string[] {
  const branch = /case\s+"?\$\{?APP\}?"?\s+in\s+([^)]*)\)/.exec(script);
  const alternatives = branch?.[1] ?? '';
  return alternatives
    .split('|')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Problems with the Dockerfile (empty when it builds what compose and the platform expect). */
/**
 * The services' base image: a Node.js LTS line still supported (22 maintenance until April 2027, 24 active; Node
 * 20 reached its end of life in April 2026), Debian bookworm slim, pinned by digest so a build is reproducible
 * and changes only through a reviewed update of the digest.
 */
export const SUPPORTED_NODE_IMAGE = /^node:(22|24)(\.\d+){0,2}-bookworm-slim@sha256:[0-9a-f]{64}$/;

export function dockerfileProblems(text: string): string[] {
  const problems: string[] = [];
  const problem = (message: string) => problems.push(message);
  const file = parseDockerfile(text);
  const globals = Object.assign({}, ...file.globalArgs.map((a) => assignments(a.args))) as Record<string, string>;
  if (!('APP' in globals)) problem('APP must be a global ARG (declared before the first FROM)');

  for (const stage of file.stages) {
    const isStage = file.stages.some((s) => s.name?.toLowerCase() === stage.base.toLowerCase());
    if (isStage || stage.base.startsWith('app-')) continue;
    const image = stage.base.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => globals[name] ?? '');
    if (!SUPPORTED_NODE_IMAGE.test(image)) {
      problem(
        `stage ${stage.name ?? '(unnamed)'}: base image must be a supported Node.js LTS (22 or 24) bookworm-slim pinned by digest, node:<major>-bookworm-slim@sha256:<digest> (got ${image || stage.base})`,
      );
    }
  }

  const script = appValidationScript(file);
  if (!script) {
    problem('a RUN must validate APP with `case "${APP}" in ...`');
  } else {
    const accepted = acceptedApps(script).sort();
    if (JSON.stringify(accepted) !== JSON.stringify([...APP_NAMES].sort())) {
      problem(`APP validation must accept exactly ${APP_NAMES.join(', ')} (accepts ${accepted.join(', ') || 'nothing'})`);
    }
    if (!/\*\)[\s\S]*?\bexit\s+[1-9]/.test(script)) problem('APP validation must exit non-zero for any other value');
  }

  const last = file.stages.at(-1);
  if (!last || last.base !== 'app-${APP}') problem('the last stage must be `FROM app-${APP}` (the default target)');
  const appStages = file.stages.filter((s) => s.name?.startsWith('app-'));
  const stageApps = appStages.map((s) => (s.name ?? '').slice(4)).sort();
  if (JSON.stringify(stageApps) !== JSON.stringify([...APP_NAMES].sort())) {
    problem(`app stages must be exactly app-{${APP_NAMES.join(',')}} (found ${stageApps.join(', ') || 'none'})`);
  }
  for (const stage of appStages) {
    const app = (stage.name ?? '').slice(4) as AppName;
    const expected = APPS[app];
    if (!expected) continue;
    const cmd = effective(file, stage, 'CMD');
    let argv: unknown;
    try {
      argv = cmd ? JSON.parse(cmd.args) : undefined;
    } catch {
      argv = undefined;
    }
    if (JSON.stringify(argv) !== JSON.stringify(['node', `apps/${app}/dist/main.js`])) {
      problem(`${stage.name}: CMD must be ["node", "apps/${app}/dist/main.js"] in exec form (got ${cmd?.args ?? 'none'})`);
    }
    const exposed = stage.instructions.filter((i) => i.keyword === 'EXPOSE').flatMap((i) => i.args.split(/\s+/));
    if (JSON.stringify(exposed) !== JSON.stringify([String(expected.port)])) {
      problem(`${stage.name}: must EXPOSE ${expected.port} only (got ${exposed.join(' ') || 'nothing'})`);
    }
    const env = effectiveEnv(file, stage);
    if (env.APP !== app) problem(`${stage.name}: ENV APP must be ${app}`);
    if (env.NODE_ENV !== 'production') problem(`${stage.name}: ENV NODE_ENV must be production`);
    if (env.APP_PORT_VARIABLE !== expected.portVariable || env.APP_DEFAULT_PORT !== String(expected.port)) {
      problem(`${stage.name}: ENV APP_PORT_VARIABLE=${expected.portVariable} APP_DEFAULT_PORT=${expected.port} (used by HEALTHCHECK)`);
    }
    const user = effective(file, stage, 'USER')?.args.split(':')[0];
    if (!user || user === 'root' || user === '0') problem(`${stage.name}: must run as a non-root USER (got ${user ?? 'root'})`);
    const healthcheck = effective(file, stage, 'HEALTHCHECK')?.args ?? '';
    if (!healthcheck.includes('fetch(') || !healthcheck.includes('/healthz') || /^NONE\b/i.test(healthcheck)) {
      problem(`${stage.name}: HEALTHCHECK must fetch /healthz with node`);
    }
  }

  const runs = file.stages
    .flatMap((s) => s.instructions)
    .filter((i) => i.keyword === 'RUN')
    .map((i) => i.args);
  if (!runs.some((r) => /\bnpm ci\b/.test(r))) problem('dependencies must be installed with `npm ci` (lockfile)');
  if (!runs.some((r) => /nx run-many -t build\b/.test(r))) problem('the build must run `nx run-many -t build`');
  if (!runs.some((r) => /npm prune --omit=dev\b/.test(r))) problem('dev dependencies must be pruned (`npm prune --omit=dev`)');
  return problems;
}

// ---------------------------------------------------------------------------------------------------------
// .dockerignore

/** Patterns the build context must exclude (sources of stale output, local state or secrets). */
export const REQUIRED_DOCKERIGNORE = ['**/node_modules', '**/dist', '**/*.tsbuildinfo', '.nx', '.git', '**/coverage', 'libs/db/src/generated', '**/.env', '**/.env.*'];

export function dockerignoreProblems(text: string): string[] {
  const patterns = new Set(
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#')),
  );
  const problems = REQUIRED_DOCKERIGNORE.filter((p) => !patterns.has(p)).map((p) => `.dockerignore must exclude ${p}`);
  for (const needed of ['package.json', 'package-lock.json', 'prisma', 'nx.json', '.gitignore']) {
    if (patterns.has(needed) || patterns.has(`/${needed}`)) problems.push(`.dockerignore must not exclude ${needed}`);
  }
  return problems;
}
