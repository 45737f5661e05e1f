import { parseArgs } from 'node:util';
import { type OperationId, OPERATIONS, WorkcellApiError, WorkcellClient, WorkcellClientError } from '@workcell/sdk';
import type { CredentialStore } from './store.js';

/** What the CLI reads and writes; main.ts binds it to the process, tests to buffers. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether a person is at the terminal (stdin and stdout are TTYs). */
  readonly interactive: boolean;
  /** Asks for a secret without echoing it. */
  promptSecret(question: string): Promise<string>;
  out(line: string): void;
  err(line: string): void;
  readonly store: CredentialStore;
  readonly fetch?: typeof fetch;
}

export const USAGE = `usage: workcell <command> [options]

  login  [--profile P] [--base-url URL]   store a personal access token in the OS credential store (interactive)
  logout [--profile P] [--revoke]         forget the stored token; --revoke also revokes it at the API
  whoami [--profile P]                    the credential's own metadata (GET /v1/auth/context)
  call <operationId> [--path k=v]... [--query k=v]... [--body JSON] [--if-match ETAG]
  list <operationId> [--path k=v]... [--query k=v]...   every item, one JSON line each

Credentials: WORKCELL_TOKEN (with WORKCELL_BASE_URL) wins over the stored login. Unattended use (no terminal, or CI
set) requires a service-account credential in WORKCELL_TOKEN. The CLI never opens a browser.`;

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

/**
 * The credential a command acts with: WORKCELL_TOKEN first (a script's or CI's), else the profile's stored login.
 * Contract 5.2 rule 8: unattended use requires a service account, so without a person at the terminal only a
 * service-account credential (or a legacy v1 key of an existing integration) from the environment is accepted.
 */
function resolveLogin(io: CliIo, profile: string): { credential: string; baseUrl: string } {
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
  const stored = io.store.get(profile);
  if (!stored) throw new CliError(`not logged in (profile ${profile}): run \`workcell login\``);
  return stored;
}

function clientFor(io: CliIo, login: { credential: string; baseUrl: string }): WorkcellClient {
  return new WorkcellClient({ credential: login.credential, baseUrl: login.baseUrl, ...(io.fetch ? { fetch: io.fetch } : {}), userAgent: 'workcell-cli' });
}

function operationOf(name: string | undefined): OperationId {
  if (!name || !(name in OPERATIONS)) throw new CliError(`unknown operation ${JSON.stringify(name ?? '')}; operations are the registry's names, e.g. listTasks`, EXIT.usage);
  return name as OperationId;
}

async function login(io: CliIo, profile: string, baseUrl: string | undefined): Promise<void> {
  if (unattended(io)) throw new CliError('login is interactive: run it at a terminal; unattended or CI use requires a service-account credential in WORKCELL_TOKEN');
  const url = baseUrl ?? io.env['WORKCELL_BASE_URL'];
  if (!url) throw new CliError('--base-url (or WORKCELL_BASE_URL) is required, e.g. https://{region}.api.example.com', EXIT.usage);
  io.out('Create a personal access token in Workcell (Settings → API → Personal access tokens) and paste it here.');
  const credential = (await io.promptSecret('Personal access token: ')).trim();
  if (!credential.startsWith('svc_pat_v2_')) throw new CliError('login stores personal access tokens (svc_pat_v2_…); service accounts belong in WORKCELL_TOKEN');
  const context = (await clientFor(io, { credential, baseUrl: url }).call('getAuthContext')).data as { credentialId: string; scopes: string[] };
  io.store.set(profile, { credential, baseUrl: url });
  io.out(`Logged in (profile ${profile}): credential ${context.credentialId}, ${context.scopes.length} scopes, stored in the OS credential store.`);
}

async function logout(io: CliIo, profile: string, revoke: boolean): Promise<void> {
  // Contract 5.2 rule 8: with a token in the environment, "revoke on logout" could revoke a credential the user
  // did not mean (the environment's, or one a script relies on): refuse rather than guess.
  if (revoke && io.env['WORKCELL_TOKEN']) throw new CliError('refusing to revoke on logout while WORKCELL_TOKEN is set; unset it first', EXIT.usage);
  const stored = io.store.get(profile);
  if (!stored) {
    io.out(`not logged in (profile ${profile})`);
    return;
  }
  if (revoke) {
    await clientFor(io, stored).call('revokeAuthContext');
    io.out('The token was revoked.');
  }
  io.store.delete(profile);
  io.out(`Logged out (profile ${profile}).`);
}

/** Runs one command; the exit code is 0 on success, 1 on a failed request, 2 on a usage error. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        profile: { type: 'string', default: DEFAULT_PROFILE },
        'base-url': { type: 'string' },
        revoke: { type: 'boolean', default: false },
        path: { type: 'string', multiple: true },
        query: { type: 'string', multiple: true },
        body: { type: 'string' },
        'if-match': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
    const [command, operation] = positionals;
    if (values.help || !command) {
      io.out(USAGE);
      return command || values.help ? EXIT.ok : EXIT.usage;
    }
    const profile = values.profile ?? DEFAULT_PROFILE;
    switch (command) {
      case 'login':
        await login(io, profile, values['base-url']);
        return EXIT.ok;
      case 'logout':
        await logout(io, profile, values.revoke ?? false);
        return EXIT.ok;
      case 'whoami': {
        const reply = await clientFor(io, resolveLogin(io, profile)).call('getAuthContext');
        io.out(JSON.stringify(reply.data, null, 2));
        return EXIT.ok;
      }
      case 'call': {
        let body: unknown;
        try {
          body = values.body === undefined ? undefined : JSON.parse(values.body);
        } catch {
          throw new CliError('--body must be JSON', EXIT.usage);
        }
        const reply = await clientFor(io, resolveLogin(io, profile)).request(operationOf(operation), {
          path: pairs(values.path, '--path'),
          query: pairs(values.query, '--query'),
          // The operation is chosen at run time: the API validates the body against the registry.
          ...(body === undefined ? {} : { body }),
          ...(values['if-match'] === undefined ? {} : { ifMatch: values['if-match'] }),
        });
        io.out(JSON.stringify(reply.data === undefined ? null : reply.data, null, 2));
        if (reply.etag) io.err(`ETag: ${reply.etag}`);
        return EXIT.ok;
      }
      case 'list': {
        const client = clientFor(io, resolveLogin(io, profile));
        for await (const item of client.paginateRequest(operationOf(operation), { path: pairs(values.path, '--path'), query: pairs(values.query, '--query') })) io.out(JSON.stringify(item));
        return EXIT.ok;
      }
      default:
        throw new CliError(`unknown command ${JSON.stringify(command)}\n${USAGE}`, EXIT.usage);
    }
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`workcell: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof WorkcellApiError) {
      io.err(`workcell: ${error.message}`);
      for (const item of error.errors.slice(1)) io.err(`  ${item.code}: ${item.detail}`);
      return EXIT.failed;
    }
    if (error instanceof WorkcellClientError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      io.err(`workcell: ${(error as Error).message}`);
      return EXIT.usage;
    }
    io.err(`workcell: ${(error as Error).message}`);
    return EXIT.failed;
  }
}
