import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { environmentSchema, loadConfig } from '@workcell/config';
import {
  acceptedApps,
  APP_NAMES,
  APPS,
  appValidationScript,
  composeProblems,
  composeSchemaErrors,
  dockerfileProblems,
  dockerignoreProblems,
  durationMs,
  findComposeCommand,
  interpolate,
  isRecord,
  parseCompose,
  parseDockerfile,
  requiredVariables,
  runDclint,
  validateComposeText,
} from './compose.js';

// The compiled test runs from tools/infra/dist.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const composePath = join(root, 'docker-compose.yml');
const composeText = readFileSync(composePath, 'utf8');
const dockerfileText = readFileSync(join(root, 'Dockerfile'), 'utf8');
const dockerignoreText = readFileSync(join(root, '.dockerignore'), 'utf8');
const expectations = { knownVariables: Object.keys(environmentSchema.shape) };

/** Values for the variables the compose file requires from the operator (test values, not secrets). */
const operatorVariables = { CREDENTIAL_SECRET: 'c'.repeat(40), POSTGRES_PASSWORD: 'compose-check-password' };

const scratch = mkdtempSync(join(tmpdir(), 'workcell-infra-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function composeDocument(): Record<string, unknown> {
  const { document, errors } = parseCompose(composeText);
  assert.deepEqual(errors, []);
  assert.ok(isRecord(document));
  return document;
}

function sharedEnvironment(): Record<string, unknown> {
  const services = composeDocument().services as Record<string, Record<string, unknown>>;
  const environment = services.worker?.environment;
  assert.ok(isRecord(environment));
  return environment;
}

/** Replaces exactly one occurrence, so a broken copy is broken where the test says. */
function replaceOnce(text: string, search: string, replacement: string): string {
  assert.equal(text.split(search).length, 2, `expected exactly one ${JSON.stringify(search)}`);
  return text.replace(search, replacement);
}

describe('docker-compose.yml', () => {
  it('is valid YAML without a top-level version', () => {
    assert.equal('version' in composeDocument(), false);
  });

  it('validates against the Compose Specification schema shipped with dclint', () => {
    assert.deepEqual(composeSchemaErrors(composeDocument()), []);
  });

  it('is clean for dclint (no errors, no warnings)', () => {
    const report = runDclint('docker-compose.yml');
    assert.deepEqual(report.messages, []);
    assert.equal(report.errors, 0);
    assert.equal(report.warnings, 0);
    assert.equal(report.exitCode, 0);
  });

  const command = findComposeCommand() ?? [];
  const compose = command.length > 0;
  if (!compose) console.warn('compose check skipped: neither the docker compose plugin nor docker-compose is installed');
  (compose ? it : it.skip)('is accepted by `docker compose config` (when a compose CLI is installed)', () => {
    const [file, ...prefix] = command as [string, ...string[]];
    // An empty env file keeps a developer's .env out of the check; the rest of the environment (PATH) is inherited.
    const envFile = join(scratch, 'empty.env');
    writeFileSync(envFile, '');
    // eslint-disable-next-line no-restricted-properties -- a child process needs the inherited environment, not AppConfig
    const { CREDENTIAL_SECRET: _secret, POSTGRES_PASSWORD: _password, ...inherited } = process.env;
    const config = (variables: Record<string, string>) =>
      spawnSync(file, [...prefix, '--env-file', envFile, '-f', composePath, 'config', '-q'], {
        cwd: root,
        env: { ...inherited, ...variables },
        encoding: 'utf8',
        timeout: 60_000,
      });

    const valid = config(operatorVariables);
    assert.equal(valid.status, 0, `${command.join(' ')} config -q failed:\n${valid.stderr}`);

    const missing = config({ POSTGRES_PASSWORD: operatorVariables.POSTGRES_PASSWORD });
    assert.notEqual(missing.status, 0, 'config must refuse to run without CREDENTIAL_SECRET');
    assert.match(missing.stderr, /CREDENTIAL_SECRET/);
  });

  it('has the structure the platform needs', () => {
    assert.deepEqual(composeProblems(composeDocument(), expectations), []);
  });

  it('builds the four services from the one Dockerfile, each with its own APP', () => {
    const services = composeDocument().services as Record<string, { build?: { args?: { APP?: string } } }>;
    for (const app of APP_NAMES) assert.equal(services[app]?.build?.args?.APP, app);
    assert.equal(services.migrate?.build?.args?.APP, 'worker');
  });

  it('asks the operator for exactly CREDENTIAL_SECRET and POSTGRES_PASSWORD and holds no secret itself', () => {
    assert.deepEqual([...new Set(requiredVariables(composeText))].sort(), ['CREDENTIAL_SECRET', 'POSTGRES_PASSWORD']);
    assert.doesNotMatch(composeText, /c{40}|compose-check-password/);
    const environment = sharedEnvironment();
    assert.match(String(environment.CREDENTIAL_SECRET), /^\$\{CREDENTIAL_SECRET:\?[^}]+\}$/);
    assert.throws(() => interpolate(String(environment.CREDENTIAL_SECRET), {}), /CREDENTIAL_SECRET/);
  });

  it('gives the services an environment that libs/config accepts in production', () => {
    const environment = Object.fromEntries(Object.entries(sharedEnvironment()).map(([key, value]) => [key, interpolate(String(value), operatorVariables)]));
    const config = loadConfig(environment);
    assert.equal(config.env, 'production');
    assert.equal(config.host, '0.0.0.0');
    assert.deepEqual(config.ports, {
      apiV0: APPS['api-v0'].port,
      apiV1: APPS['api-v1'].port,
      auth: APPS.auth.port,
      worker: APPS.worker.port,
    });
    assert.deepEqual(config.internalUrls, { auth: 'http://auth:3002', worker: 'http://worker:3003' });
    assert.equal(config.credentialSecret, operatorVariables.CREDENTIAL_SECRET);
    // Through PgBouncer; migrations and LISTEN direct (docs/scale-out.md).
    assert.equal(config.database.url, `postgresql://workcell:${operatorVariables.POSTGRES_PASSWORD}@pgbouncer:6432/workcell`);
    assert.equal(config.database.directUrl, `postgresql://workcell:${operatorVariables.POSTGRES_PASSWORD}@postgres:5432/workcell`);
    assert.equal(config.database.listenUrl, config.database.directUrl);
    assert.deepEqual(config.redis.clusterNodes, []);
    assert.equal(config.redis.url, 'redis://redis:6379');
    const services = composeDocument().services as Record<string, { stop_grace_period?: string }>;
    for (const app of APP_NAMES) assert.ok(durationMs(services[app]?.stop_grace_period) > config.shutdownTimeoutMs, app);
  });
});

describe('Dockerfile', () => {
  const dockerfile = parseDockerfile(dockerfileText);

  it('builds what compose and the platform expect', () => {
    assert.deepEqual(dockerfileProblems(dockerfileText), []);
  });

  it('accepts exactly the four app names', () => {
    const script = appValidationScript(dockerfile);
    assert.ok(script);
    assert.deepEqual(acceptedApps(script).sort(), [...APP_NAMES].sort());
    const stages = dockerfile.stages.map((s) => s.name).filter((n) => n?.startsWith('app-'));
    assert.deepEqual(stages.sort(), APP_NAMES.map((a) => `app-${a}`).sort());
  });

  it('fails the build with a clear message for any other APP (running the validation step)', () => {
    const script = appValidationScript(dockerfile);
    assert.ok(script);
    const run = (app: string) => spawnSync('/bin/sh', ['-c', script], { env: { APP: app }, encoding: 'utf8' });
    for (const app of APP_NAMES) assert.equal(run(app).status, 0, app);
    for (const app of ['', 'api', 'API-V0', 'api-v2', 'auth ', 'worker;true', 'postgres']) {
      const result = run(app);
      assert.notEqual(result.status, 0, JSON.stringify(app));
      assert.match(result.stderr, /APP must be one of: api-v0, api-v1, auth, worker/);
    }
  });

  it('runs every app stage as the non-root node user', () => {
    const runtime = dockerfile.stages.find((s) => s.name === 'runtime');
    assert.ok(runtime);
    assert.deepEqual(
      runtime.instructions.filter((i) => i.keyword === 'USER').map((i) => i.args),
      ['node'],
    );
    for (const stage of dockerfile.stages.filter((s) => s.name?.startsWith('app-'))) {
      assert.equal(stage.base, 'runtime', stage.name);
      assert.equal(stage.instructions.filter((i) => i.keyword === 'USER').length, 0, stage.name);
    }
  });
});

describe('.dockerignore', () => {
  it('keeps dependencies, build output, caches, the generated client and env files out of the context', () => {
    assert.deepEqual(dockerignoreProblems(dockerignoreText), []);
  });
});

describe('the checks catch broken files', () => {
  it('schema: an unknown depends_on condition', () => {
    const broken = replaceOnce(
      composeText,
      'APP: auth\n    depends_on:\n      migrate:\n        condition: service_completed_successfully',
      'APP: auth\n    depends_on:\n      migrate:\n        condition: service_finished',
    );
    assert.ok(validateComposeText(broken).some((e) => e.includes('/services/auth/depends_on')));
  });

  it('schema: an unknown top-level key', () => {
    const errors = validateComposeText(`${composeText}\nservice:\n  oops: {}\n`);
    assert.ok(
      errors.some((e) => e.includes('additionalProperty') && e.includes('service')),
      errors.join('\n'),
    );
  });

  it('schema: a wrongly typed value', () => {
    const broken = replaceOnce(composeText, "restart: 'no'", 'restart: [no]');
    assert.ok(validateComposeText(broken).some((e) => e.includes('/services/migrate/restart')));
  });

  it('YAML: a duplicated key', () => {
    const broken = replaceOnce(composeText, "restart: 'no'", "restart: 'no'\n    restart: 'no'");
    assert.notDeepEqual(validateComposeText(broken), []);
  });

  it('dclint: an invalid file and an unbound port', () => {
    const invalid = join(scratch, 'invalid', 'docker-compose.yml');
    const unbound = join(scratch, 'unbound', 'docker-compose.yml');
    for (const [path, text] of [
      [invalid, replaceOnce(composeText, "restart: 'no'", 'restart: {}')],
      [unbound, replaceOnce(composeText, "'127.0.0.1:3002:3002'", "'3002:3002'")],
    ] as const) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      const report = runDclint(path);
      assert.ok(report.errors > 0, report.messages.join('\n'));
      assert.notEqual(report.exitCode, 0);
    }
  });

  it('structure: each requirement is enforced', () => {
    type Mapping = Record<string, unknown>;
    /** The mapping at a path (e.g. 'worker', 'depends_on', 'migrate') of a copy of the services. */
    const at = (services: Mapping, ...path: string[]): Mapping =>
      path.reduce<Mapping>((node, key) => {
        const child = node[key];
        assert.ok(isRecord(child), path.join('.'));
        return child;
      }, services);
    const cases: [string, (services: Mapping) => void, RegExp][] = [
      ['literal secret', (s) => (at(s, 'api-v1', 'environment').CREDENTIAL_SECRET = 'x'.repeat(40)), /CREDENTIAL_SECRET/],
      ['a secret with a default', (s) => (at(s, 'worker', 'environment').FILE_S3_SECRET_ACCESS_KEY = '${FILE_S3_SECRET_ACCESS_KEY:-changeme}'), /FILE_S3_SECRET_ACCESS_KEY must be exactly/],
      ['literal DB password', (s) => (at(s, 'worker', 'environment').DATABASE_URL = 'postgresql://u:hunter2@postgres/db'), /literal password/],
      ['short grace period', (s) => (at(s, 'auth').stop_grace_period = '10s'), /auth: stop_grace_period/],
      ['migrate restarts', (s) => (at(s, 'migrate').restart = 'on-failure'), /migrate: restart/],
      ['API not waiting for auth', (s) => delete at(s, 'api-v0', 'depends_on').auth, /api-v0: depends_on.auth/],
      ['worker not waiting for migrate', (s) => (at(s, 'worker', 'depends_on', 'migrate').condition = 'service_started'), /worker: depends_on.migrate/],
      ['no healthcheck', (s) => delete at(s, 'api-v1').healthcheck, /api-v1: healthcheck/],
      ['wrong APP', (s) => (at(s, 'auth', 'build', 'args').APP = 'worker'), /auth: build.args.APP/],
      ['other Dockerfile', (s) => (at(s, 'worker', 'build').dockerfile = 'worker.Dockerfile'), /worker: build.dockerfile/],
      ['unknown variable', (s) => (at(s, 'auth', 'environment').REDIS_PREFX = 'wc'), /REDIS_PREFX/],
      ['missing service', (s) => delete s.redis, /service redis is missing/],
      [
        'a documented variable that does not pass through',
        (s) => [...APP_NAMES, 'migrate'].forEach((app) => delete at(s, app, 'environment').WEBHOOK_RETRY_SCHEDULE),
        /passes no value for WEBHOOK_RETRY_SCHEDULE/,
      ],
    ];
    for (const [label, breakIt, expected] of cases) {
      const document = structuredClone(composeDocument());
      breakIt(at(document, 'services'));
      const problems = composeProblems(document, expectations);
      assert.ok(
        problems.some((p) => expected.test(p)),
        `${label}: ${problems.join('; ') || 'no problems found'}`,
      );
    }
  });

  it('Dockerfile: each requirement is enforced', () => {
    const cases: [string, string, string, RegExp][] = [
      ['a fifth app', 'api-v0|api-v1|auth|worker)', 'api-v0|api-v1|auth|worker|admin)', /accept exactly/],
      ['root user', 'USER node\n', '', /non-root USER/],
      ['shell-form CMD', 'CMD ["node", "apps/auth/dist/main.js"]', 'CMD node apps/${APP}/dist/main.js', /app-auth: CMD/],
      ['wrong port', 'EXPOSE 3001', 'EXPOSE 3000', /app-api-v1: must EXPOSE 3001/],
      ['no prune', 'npm prune --omit=dev', 'true', /pruned/],
      ['alpine base image', 'ARG NODE_IMAGE=node:24-bookworm-slim@', 'ARG NODE_IMAGE=node:24-alpine@', /supported Node.js LTS/],
      ['end-of-life Node.js', 'ARG NODE_IMAGE=node:24-bookworm-slim@', 'ARG NODE_IMAGE=node:20-bookworm-slim@', /supported Node.js LTS/],
      ['a floating tag', '@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d', '', /pinned by digest/],
    ];
    for (const [label, search, replacement, expected] of cases) {
      const problems = dockerfileProblems(replaceOnce(dockerfileText, search, replacement));
      assert.ok(
        problems.some((p) => expected.test(p)),
        `${label}: ${problems.join('; ') || 'no problems found'}`,
      );
    }
  });

  it('.dockerignore: a missing exclusion', () => {
    assert.match(dockerignoreProblems(dockerignoreText.replace('**/dist\n', '')).join('\n'), /\*\*\/dist/);
  });
});
