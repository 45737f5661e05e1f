import { parseArgs } from 'node:util';
import { DEFAULT_USER_AGENT, REGISTRY_DIGEST, type RequestOptions, WorkcellApiError, WorkcellClient, WorkcellClientError, WorkcellError } from '@workcell/sdk';
import { type AuthenticationLinks, deviceLogin, DeviceLoginError, discoverLinks, linksAt } from './device-login.js';
import { COMMANDS, type CommandName, commandHelp, USAGE } from './help.js';
import { listen, type ListenProfiles, ListenUsageError } from './listen.js';
import { findOperation, type NamedOperation, operationHelp, searchOperations, similarOperations } from './operations.js';
import { record, table } from './output.js';
import { failureOf, type Followed, waitForOperation, WaitTimeout } from './progress.js';
import { type CredentialStore, CredentialStoreUnavailable, type JsonFile, type StoredLogin } from './store.js';

/** What the CLI reads and writes; main.ts binds it to the process, tests to buffers. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A person can answer a prompt: stdin is a terminal (stdout may be a pipe: `workcell list … | jq`). */
  readonly interactive: boolean;
  /** stdout is a terminal: results as tables; otherwise (a pipe, a file) as JSON, like `--json`. */
  readonly tty: boolean;
  /** Asks for a secret without echoing it. */
  promptSecret(question: string): Promise<string>;
  /** Asks a question whose answer may show (a choice). */
  prompt(question: string): Promise<string>;
  out(line: string): void;
  err(line: string): void;
  /** Writes a downloaded file's bytes as they come: to `file`, or to stdout when it is null. */
  save(body: ReadableStream<Uint8Array>, file: string | null): Promise<void>;
  /** Rewrites the current status line of a terminal (progress); absent where stderr is not one. */
  readonly status?: (line: string) => void;
  /** `--body -`: the whole of stdin; `--body @file`: a file. */
  readInput(source: '-' | { file: string }): Promise<string>;
  /** The OS credential store, and the file `--insecure-storage` uses where there is none. */
  readonly store: CredentialStore;
  readonly insecureStore: CredentialStore;
  readonly version: string;
  readonly fetch?: typeof fetch;
  /** How `--wait` pauses between polls, and listen before asking an unavailable API again (tests pass a fast one). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Where `workcell listen` keeps its signing secret and feed position per profile. */
  readonly listenState: JsonFile<ListenProfiles>;
  /**
   * Ctrl-C (SIGINT) as an abort, for a command that stops cleanly (listen), from the moment it is asked for;
   * every other command keeps the default (Ctrl-C ends the process).
   */
  readonly interruption?: () => AbortSignal;
}

const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
const DEFAULT_PROFILE = 'default';

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
  }
}

function pairs(values: readonly string[] | undefined, flag: string): Record<string, string> {
  return Object.fromEntries(
    (values ?? []).map((value) => {
      const at = value.indexOf('=');
      if (at <= 0) throw new CliError(`${flag} takes key=value, got ${JSON.stringify(value)}`, EXIT.usage);
      return [value.slice(0, at), value.slice(at + 1)];
    }),
  );
}

const unattended = (io: CliIo) => !io.interactive || Boolean(io.env['CI']);

/** Where the stored login is, reading the OS store first and the insecure file second. */
async function storedLogin(io: CliIo, profile: string): Promise<{ login: StoredLogin | null; osProblem: string | null }> {
  let osProblem: string | null = null;
  try {
    const login = await io.store.get(profile);
    if (login) return { login, osProblem };
  } catch (error) {
    if (!(error instanceof CredentialStoreUnavailable)) throw error;
    osProblem = error.message;
  }
  return { login: await io.insecureStore.get(profile), osProblem };
}

/**
 * The credential a command acts with: WORKCELL_TOKEN first (a script's or CI's), else the profile's stored login.
 * Contract 5.2 rule 8: unattended use requires a service account, so without a person at the terminal only a
 * service-account credential (or a legacy v1 key of an existing integration) from the environment is accepted.
 */
async function resolveLogin(io: CliIo, profile: string): Promise<StoredLogin> {
  const fromEnv = io.env['WORKCELL_TOKEN'];
  if (unattended(io)) {
    if (!fromEnv) throw new CliError('unattended use needs a service-account credential in WORKCELL_TOKEN (and WORKCELL_BASE_URL); stored logins are for people at a terminal');
    if (fromEnv.startsWith('svc_pat_v2_')) throw new CliError('unattended use requires a service-account credential: WORKCELL_TOKEN holds a personal access token');
  }
  if (fromEnv) {
    const baseUrl = io.env['WORKCELL_BASE_URL'];
    if (!baseUrl) throw new CliError('WORKCELL_BASE_URL is required with WORKCELL_TOKEN');
    return { credential: fromEnv, baseUrl };
  }
  const { login, osProblem } = await storedLogin(io, profile);
  if (!login)
    throw new CliError(`not logged in (profile ${profile}): run \`workcell login\`${osProblem ? ` (the OS credential store is unavailable: ${osProblem}; see \`workcell help login\`)` : ''}`);
  return login;
}

function clientFor(io: CliIo, login: StoredLogin): WorkcellClient {
  return new WorkcellClient({ credential: login.credential, baseUrl: login.baseUrl, ...(io.fetch ? { fetch: io.fetch } : {}), userAgent: `workcell-cli/${io.version} ${DEFAULT_USER_AGENT}` });
}

function operationOf(name: string | undefined, command: string): NamedOperation {
  const operation = findOperation(name);
  if (!operation) {
    const near = name ? similarOperations(name) : [];
    const hint = near.length ? `; did you mean ${near.join(', ')}?` : '; find one with `workcell operations <words>`';
    throw new CliError(`${command} needs an operation name${name ? `, and ${JSON.stringify(name)} is none` : ''}${hint}`, EXIT.usage);
  }
  return operation;
}

interface LoginOptions {
  readonly baseUrl: string | undefined;
  readonly authUrl: string | undefined;
  readonly insecure: boolean;
  readonly method: 'device' | 'token' | undefined;
  readonly scopes: readonly string[];
}

/** Which way to log in: the flag's, else the person's choice (the device login first, as `gh auth login` offers it). */
async function loginMethod(io: CliIo, options: LoginOptions, links: AuthenticationLinks | null): Promise<'device' | 'token'> {
  if (options.method) return options.method;
  if (!links) return 'token';
  io.err('How do you want to log in?');
  io.err('  1. With a browser: sign in and enter a one-time code (device login)');
  io.err(`  2. Paste a personal access token (create one on your account page, ${links.accountUrl})`);
  const answer = (await io.prompt('Choose 1 or 2 [1]: ')).trim();
  if (answer === '' || answer === '1') return 'device';
  if (answer === '2') return 'token';
  throw new CliError(`no such choice: ${JSON.stringify(answer)} (1 or 2; or pass --device or --with-token)`, EXIT.usage);
}

async function login(io: CliIo, profile: string, options: LoginOptions): Promise<void> {
  if (unattended(io)) throw new CliError('login is interactive: run it at a terminal; unattended or CI use requires a service-account credential in WORKCELL_TOKEN');
  const url = options.baseUrl ?? io.env['WORKCELL_BASE_URL'];
  if (!url) throw new CliError('--base-url (or WORKCELL_BASE_URL) is required, e.g. https://{region}.api.example.com', EXIT.usage);
  if (options.method && options.scopes.length > 0 && options.method !== 'device') throw new CliError('--scopes is for the device login (--device)', EXIT.usage);
  const fetchFn = io.fetch ?? fetch;
  const authUrl = options.authUrl ?? io.env['WORKCELL_AUTH_URL'];
  // An API address with {region} names no server before a token does: the auth service's address must be given.
  const links = authUrl
    ? linksAt(authUrl)
    : url.includes('{')
      ? null
      : await discoverLinks(fetchFn, url).catch((error: unknown) => {
          if (options.method === 'device') throw error;
          return null;
        });
  const method = await loginMethod(io, options, links);
  let credential: string;
  if (method === 'device') {
    if (!links) throw new CliError('the device login needs the auth service: pass --auth-url (or WORKCELL_AUTH_URL) with an API address that is a template', EXIT.usage);
    credential = await deviceLogin(
      { fetch: fetchFn, sleep: io.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))), err: (line) => io.err(line), ...(io.status ? { status: io.status } : {}) },
      links,
      options.scopes,
    );
  } else {
    io.err(`Create a personal access token on your account page (${links?.accountUrl ?? "the auth service's /account"}) and paste it here.`);
    credential = (await io.promptSecret('Personal access token: ')).trim();
  }
  if (!credential.startsWith('svc_pat_v2_')) throw new CliError('login stores personal access tokens (svc_pat_v2_…); service accounts belong in WORKCELL_TOKEN');
  const context = (await clientFor(io, { credential, baseUrl: url }).call('getAuthContext')).data as { credentialId: string; scopes: string[] };
  const store = options.insecure ? io.insecureStore : io.store;
  try {
    await store.set(profile, { credential, baseUrl: url });
  } catch (error) {
    if (!(error instanceof CredentialStoreUnavailable)) throw error;
    throw new CliError(
      `the token is valid but cannot be stored: ${store.description} is unavailable (${error.message}).\n` +
        `  Either run \`workcell login --insecure-storage\` to keep it in ${io.insecureStore.description},\n` +
        '  or set WORKCELL_TOKEN and WORKCELL_BASE_URL in the environment instead of logging in.',
    );
  }
  io.err(`Logged in (profile ${profile}): credential ${context.credentialId}, ${context.scopes.length} scopes, stored in ${store.description}.`);
}

async function logout(io: CliIo, profile: string, revoke: boolean): Promise<void> {
  // Contract 5.2 rule 8: with a token in the environment, "revoke on logout" could revoke a credential the user
  // did not mean (the environment's, or one a script relies on): refuse rather than guess.
  if (revoke && io.env['WORKCELL_TOKEN']) throw new CliError('refusing to revoke on logout while WORKCELL_TOKEN is set; unset it first', EXIT.usage);
  const { login: stored } = await storedLogin(io, profile);
  if (!stored) {
    io.err(`not logged in (profile ${profile})`);
    return;
  }
  if (revoke) {
    await clientFor(io, stored).call('revokeAuthContext');
    io.err('The token was revoked.');
  }
  await io.store.delete(profile).catch((error: unknown) => {
    if (!(error instanceof CredentialStoreUnavailable)) throw error;
  });
  await io.insecureStore.delete(profile);
  io.err(`Logged out (profile ${profile}).`);
}

/** Shows one result: JSON for scripts (`--json`, a pipe), a table or a field list for people. */
function show(io: CliIo, data: unknown, json: boolean): void {
  if (json) {
    io.out(JSON.stringify(data === undefined ? null : data, null, 2));
    return;
  }
  if (data === undefined) return;
  const width = io.env['COLUMNS'] ? Number(io.env['COLUMNS']) : 120;
  const lines = Array.isArray(data) ? table(data as Record<string, unknown>[], undefined, width) : record(data, width);
  for (const line of lines) io.out(line);
}

async function bodyOf(io: CliIo, value: string | undefined): Promise<unknown> {
  if (value === undefined) return undefined;
  const text = value === '-' ? await io.readInput('-') : value.startsWith('@') ? await io.readInput({ file: value.slice(1) }) : value;
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`--body must be JSON (inline, @file or - for stdin)`, EXIT.usage);
  }
}

function seconds(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new CliError('--timeout takes a number of seconds', EXIT.usage);
  return parsed;
}

const OPTIONS = {
  profile: { type: 'string', default: DEFAULT_PROFILE },
  'base-url': { type: 'string' },
  'insecure-storage': { type: 'boolean', default: false },
  'auth-url': { type: 'string' },
  device: { type: 'boolean', default: false },
  'with-token': { type: 'boolean', default: false },
  scopes: { type: 'string' },
  revoke: { type: 'boolean', default: false },
  path: { type: 'string', multiple: true },
  query: { type: 'string', multiple: true },
  body: { type: 'string' },
  'if-match': { type: 'string' },
  'idempotency-key': { type: 'string' },
  wait: { type: 'boolean', default: false },
  timeout: { type: 'string' },
  family: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean', default: false },
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  'from-cursor': { type: 'string' },
  output: { type: 'string', short: 'o' },
  json: { type: 'boolean', default: false },
  version: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/**
 * The flags and positionals; a flag it does not know, or one missing its value, as the CLI's own sentence naming
 * the command and its help (parseArgs' message speaks of its API, not of workcell).
 */
function parsed(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (!code?.startsWith('ERR_PARSE_ARGS')) throw error;
    const [command] = parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS, strict: false }).positionals;
    // parseArgs names the flag in quotes: '--foo', '--limit <value>', '-o, --output <value>'.
    const flag = /'(?:-\w, )?(--?[\w-]+)/.exec(message)?.[1] ?? '';
    const problem = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? `unknown option ${flag}` : /argument missing/.test(message) ? `${flag} needs a value` : message;
    throw new CliError(command ? `${problem} for ${command}; see workcell help ${command}` : `${problem}; see workcell help`, EXIT.usage);
  }
}

/** Runs one command; the exit code is 0 on success, 1 on a failed request, 2 on a usage error. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parsed(argv);
    const [command, ...rest] = positionals;
    const json = values.json || !io.tty;
    if (values.version) {
      io.out(`workcell ${io.version} (registry ${REGISTRY_DIGEST.slice(0, 12)})`);
      return EXIT.ok;
    }
    if (!command) {
      io.out(USAGE);
      return values.help ? EXIT.ok : EXIT.usage;
    }
    if (command === 'help' || values.help) {
      const topic = command === 'help' ? rest[0] : command;
      const lines = helpFor(topic, command === 'help' ? undefined : rest[0]);
      if (!lines) throw new CliError(`no help for ${JSON.stringify(topic)}: it is neither a command nor an operation\n${USAGE}`, EXIT.usage);
      for (const line of lines) io.out(line);
      return EXIT.ok;
    }
    const profile = values.profile ?? DEFAULT_PROFILE;
    switch (command as CommandName) {
      case 'login':
        if (values.device && values['with-token']) throw new CliError('--device and --with-token are two ways to log in: choose one', EXIT.usage);
        await login(io, profile, {
          baseUrl: values['base-url'],
          authUrl: values['auth-url'],
          insecure: values['insecure-storage'] ?? false,
          method: values.device ? 'device' : values['with-token'] ? 'token' : undefined,
          scopes: (values.scopes ?? '').split(/[\s,]+/).filter((x) => x.length > 0),
        });
        return EXIT.ok;
      case 'logout':
        await logout(io, profile, values.revoke ?? false);
        return EXIT.ok;
      case 'whoami': {
        const reply = await clientFor(io, await resolveLogin(io, profile)).call('getAuthContext');
        show(io, reply.data, json);
        return EXIT.ok;
      }
      case 'operations': {
        const found = searchOperations(rest, values.family).map(({ operationId, method, path, family, summary }) => ({ operationId, method, path, family, summary }));
        if (json) for (const operation of found) io.out(JSON.stringify(operation));
        else for (const line of table(found, ['operationId', 'method', 'path', 'summary'], Number(io.env['COLUMNS'] ?? 160))) io.out(line);
        if (!json) io.err(`${found.length} operation(s); \`workcell help <operationId>\` shows how to call one`);
        return found.length > 0 ? EXIT.ok : EXIT.failed;
      }
      case 'call':
        return await call(io, operationOf(rest[0], 'call'), profile, values, json);
      case 'list':
        return await list(io, operationOf(rest[0], 'list'), profile, values, json);
      case 'exports': {
        const [subcommand, id, ...extra] = rest;
        if (subcommand !== 'download' || !id || extra.length > 0) throw new CliError(`usage: ${COMMANDS.exports.usage}`, EXIT.usage);
        await download(io, clientFor(io, await resolveLogin(io, profile)), 'downloadExport', { path: { id } }, values.output ?? null);
        return EXIT.ok;
      }
      case 'listen':
        return await listenCommand(io, profile, values, json);
      default:
        throw new CliError(`unknown command ${JSON.stringify(command)}\n${USAGE}`, EXIT.usage);
    }
  } catch (error) {
    return failure(io, error);
  }
}

type Values = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>['values'];

function helpFor(topic: string | undefined, operationName: string | undefined): string[] | null {
  if (topic === undefined) return [USAGE];
  // `workcell call createTag --help` is the operation's help; `workcell help createTag` too.
  if ((topic === 'call' || topic === 'list') && operationName) {
    const operation = findOperation(operationName);
    return operation ? operationHelp(operation) : null;
  }
  if (topic in COMMANDS) return commandHelp(topic as CommandName);
  const operation = findOperation(topic);
  return operation ? operationHelp(operation) : null;
}

/** A file an operation answers, streamed to `file` (or stdout) as it comes; where it went, on stderr. */
async function download(io: CliIo, client: WorkcellClient, operationId: string, options: RequestOptions, file: string | null): Promise<void> {
  const answer = await client.downloadRequest(operationId, options);
  await io.save(answer.body, file);
  if (file !== null) io.err(`saved ${answer.fileName ?? operationId}${answer.size === null ? '' : ` (${answer.size} bytes)`} to ${file}`);
}

async function call(io: CliIo, operation: NamedOperation, profile: string, values: Values, json: boolean): Promise<number> {
  const client = clientFor(io, await resolveLogin(io, profile));
  const body = await bodyOf(io, values.body);
  const options: RequestOptions = {
    path: pairs(values.path, '--path'),
    query: pairs(values.query, '--query'),
    // The operation is chosen at run time: the API validates the body against the registry.
    ...(body === undefined ? {} : { body }),
    ...(values['if-match'] === undefined ? {} : { ifMatch: values['if-match'] }),
    ...(values['idempotency-key'] === undefined ? {} : { idempotencyKey: values['idempotency-key'] }),
  };
  if (operation.download) {
    await download(io, client, operation.operationId, options, values.output ?? null);
    return EXIT.ok;
  }
  const reply = await client.request(operation.operationId, options);
  if (reply.etag) io.err(`ETag: ${reply.etag}`);
  if (reply.status === 202 && reply.location) {
    if (!values.wait) {
      show(io, reply.data, json);
      io.err(`accepted: it runs in the background; add --wait to follow it to its end (${reply.location})`);
      return EXIT.ok;
    }
    const live = io.status !== undefined && !json;
    const final = await waitForOperation(client, reply.location, {
      timeoutMs: seconds(values.timeout, 600) * 1000,
      intervalMs: 500,
      live,
      report: (line, rewrite) => (rewrite && io.status ? io.status(line) : io.err(line)),
      ...(io.sleep ? { sleep: io.sleep } : {}),
    });
    if (live) io.err(''); // ends the status line, which stays on screen
    show(io, final.resource, json);
    return finished(io, final);
  }
  show(io, reply.data, json);
  const next = reply.meta?.nextCursor;
  if (next) io.err(`next page: --query cursor=${next}`);
  return EXIT.ok;
}

function finished(io: CliIo, followed: Followed): number {
  if (followed.resource.status === 'succeeded') return EXIT.ok;
  io.err(`workcell: ${failureOf(followed)}`);
  return EXIT.failed;
}

async function list(io: CliIo, operation: NamedOperation, profile: string, values: Values, json: boolean): Promise<number> {
  if (operation.method !== 'GET') throw new CliError(`${operation.operationId} is not a read; use \`workcell call ${operation.operationId}\``, EXIT.usage);
  const client = clientFor(io, await resolveLogin(io, profile));
  const query = { ...pairs(values.query, '--query'), ...(values.limit ? { limit: values.limit } : {}), ...(values.cursor ? { cursor: values.cursor } : {}) };
  const path = pairs(values.path, '--path');
  const items: unknown[] = [];
  const emit = (item: unknown) => (json ? io.out(JSON.stringify(item)) : items.push(item));
  let next: string | null = null;
  if (values.all) {
    for await (const item of client.paginateRequest(operation.operationId, { path, query })) emit(item);
  } else {
    const page = await client.request(operation.operationId, { path, query });
    if (!Array.isArray(page.data)) throw new CliError(`${operation.operationId} answers one resource, not a list; use \`workcell call ${operation.operationId}\``, EXIT.usage);
    for (const item of page.data) emit(item);
    next = page.meta?.nextCursor ?? null;
  }
  if (!json) show(io, items, false);
  // The cursor goes to stderr, so `--json | jq` sees items only and a person sees how to go on.
  if (next)
    io.err(
      `next page: workcell list ${operation.operationId}${[...(values.path ?? []).map((p) => ` --path ${p}`), ...(values.query ?? []).filter((q) => !q.startsWith('cursor=')).map((q) => ` --query ${q}`)].join('')}${values.limit ? ` --limit ${values.limit}` : ''} --cursor ${next}   (or --all)`,
    );
  return EXIT.ok;
}

function forwardTarget(value: string | undefined): URL {
  if (value === undefined) throw new CliError('listen needs --forward-to URL, e.g. --forward-to http://localhost:3000/webhooks', EXIT.usage);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`--forward-to takes an http or https URL, got ${JSON.stringify(value)}`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--forward-to takes an http or https URL, got ${JSON.stringify(value)}`, EXIT.usage);
  return url;
}

async function listenCommand(io: CliIo, profile: string, values: Values, json: boolean): Promise<number> {
  const forwardTo = forwardTarget(values['forward-to']);
  const events = values.events === undefined ? null : values.events.split(',').map((name) => name.trim());
  if (events?.some((name) => name === '')) throw new CliError('--events takes comma-separated event types, e.g. task.created,task.updated', EXIT.usage);
  const client = clientFor(io, await resolveLogin(io, profile));
  const signal = io.interruption?.() ?? new AbortController().signal;
  await listen(
    client,
    { out: io.out, err: io.err, state: io.listenState, signal, ...(io.sleep ? { sleep: io.sleep } : {}) },
    { forwardTo, events, profile, json, ...(values['from-cursor'] === undefined ? {} : { fromCursor: values['from-cursor'] }) },
  );
  return EXIT.ok;
}

/** Errors as sentences: the API's code and detail with the field it names, never a stack trace. */
function failure(io: CliIo, error: unknown): number {
  if (error instanceof CliError) {
    io.err(`workcell: ${error.message}`);
    return error.exitCode;
  }
  if (error instanceof ListenUsageError) {
    io.err(`workcell: ${error.message}`);
    return EXIT.usage;
  }
  if (error instanceof DeviceLoginError) {
    io.err(`workcell: ${error.message}`);
    return EXIT.failed;
  }
  if (error instanceof WorkcellApiError) {
    io.err(`workcell: ${error.message}`);
    for (const item of error.errors) if (item.source?.pointer !== undefined || item.source?.parameter !== undefined) io.err(`  ${item.source.pointer ?? item.source.parameter}: ${item.detail}`);
    for (const item of error.errors.slice(1)) if (item.source === undefined) io.err(`  ${item.code}: ${item.detail}`);
    if (error.retryAfter !== null) io.err(`  retry after ${error.retryAfter} s`);
    return EXIT.failed;
  }
  if (error instanceof WorkcellClientError) {
    io.err(`workcell: ${(error as Error).message}`);
    return EXIT.usage;
  }
  if (error instanceof CredentialStoreUnavailable || error instanceof WaitTimeout || error instanceof WorkcellError) {
    io.err(`workcell: ${error.message}`);
    return EXIT.failed;
  }
  io.err(`workcell: ${(error as Error)?.message?.split('\n')[0] ?? String(error)}`);
  return EXIT.failed;
}
