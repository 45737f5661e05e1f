/** The commands and their help: `workcell help <command>`, `workcell <command> --help`. */
export const COMMANDS = {
  login: {
    usage: 'workcell login [--base-url URL] [--device | --with-token] [--scopes S] [--auth-url URL] [--profile P] [--insecure-storage]',
    summary: 'log in with a browser (device login) or a pasted personal access token (interactive)',
    details: [
      'Offers two ways, and stores the personal access token either gives, verified with GET /v1/auth/context and',
      "with the base address, in the operating system's credential store (Secret Service / GNOME keyring, Keychain,",
      'Credential Manager) under the profile:',
      '  1. the device login: prints a one-time code and the page to enter it on (it never opens a browser); you sign',
      '     in there, choose the workspace, scopes and expiry, and approve; the CLI waits and receives the token once;',
      '  2. pasting a token created on your account page (hidden input; a paste is never echoed).',
      '',
      '  --base-url URL        the API address, or a template such as https://{region}.api.example.com that the',
      "                        token's region fills in (default: WORKCELL_BASE_URL)",
      '  --device              the device login, without asking',
      '  --with-token          paste a token, without asking',
      '  --scopes S            the scopes the device login asks for (comma-separated; the page offers them checked;',
      '                        without it, everything your roles allow is offered checked)',
      "  --auth-url URL        the auth service's address (default: WORKCELL_AUTH_URL, else what GET /v1 names;",
      '                        needed when --base-url is a template)',
      '  --insecure-storage    where no OS credential store is usable (a server, a container): keep the token in',
      '                        $XDG_CONFIG_HOME/workcell/credentials.json (~/.config/…), clear text readable only by',
      '                        you. Or skip login and set WORKCELL_TOKEN and WORKCELL_BASE_URL.',
      '',
      'Unattended use (no terminal, or CI set) never logs in: it requires a service-account credential in',
      'WORKCELL_TOKEN.',
    ],
  },
  logout: {
    usage: 'workcell logout [--profile P] [--revoke]',
    summary: 'forget the stored token (--revoke also revokes it)',
    details: ['  --revoke    revoke exactly the stored token at the API first (refused while WORKCELL_TOKEN is set)'],
  },
  whoami: {
    usage: 'workcell whoami [--profile P] [--json]',
    summary: 'the credential in use: kind, scopes, region, expiry',
    details: [],
  },
  operations: {
    usage: 'workcell operations [words…] [--family F] [--json]',
    summary: 'find operations by name, path or summary',
    details: ['Every v1 operation the client knows (the registry it was built from), e.g. `workcell operations task archive`.'],
  },
  call: {
    usage: 'workcell call <operationId> [--path k=v]… [--query k=v]… [--body JSON|@file|-] [--if-match ETAG] [--wait]',
    summary: 'call one operation by name',
    details: [
      'Prints the result (a table or field list at a terminal, JSON otherwise or with --json); the ETag and the',
      'next-page cursor go to stderr. `workcell call <operationId> --help` shows what an operation needs.',
      '',
      '  --path k=v             a path parameter (repeat for each)',
      '  --query k=v            a query parameter (repeat for each)',
      '  --body JSON            the request body: inline JSON, @file, or - to read stdin',
      "  --if-match ETAG        the resource's ETag, for operations that require it",
      '  --idempotency-key K    the Idempotency-Key of an idempotent POST (default: a new one)',
      '  --wait                 for operations accepted asynchronously (202): follow the operation to its end,',
      '                         showing its progress on stderr; exit 1 if it fails',
      '  --timeout SECONDS      how long --wait waits (default 600)',
    ],
  },
  list: {
    usage: 'workcell list <operationId> [--path k=v]… [--query k=v]… [--limit N] [--cursor C] [--all]',
    summary: 'list a collection, page by page',
    details: [
      'One page (a table at a terminal; one JSON object per line otherwise or with --json), and on stderr the',
      'command that shows the next page.',
      '',
      '  --limit N     page size',
      '  --cursor C    the page after the one that printed this cursor',
      '  --all         every page',
    ],
  },
  exports: {
    usage: 'workcell exports download <id> [-o FILE]',
    summary: "download a succeeded export's file (CSV or JSON Lines)",
    details: [
      'Streams the file to FILE as it arrives (to stdout without -o), e.g.',
      '  workcell call createExport --body \'{"resourceTypes":["tasks"],"format":"csv"}\' --wait   # prints its id',
      '  workcell exports download <id> -o tasks.csv',
      '`workcell call downloadExport --path id=<id>` does the same. Needs exports:read; only the credential that',
      'created the export may download it, until it expires.',
      '',
      '  -o, --output FILE    write the file here instead of stdout',
    ],
  },
  listen: {
    usage: 'workcell listen --forward-to URL [--events a,b] [--from-cursor C] [--profile P] [--json]',
    summary: 'forward events to a local receiver as signed webhooks',
    details: [
      'Follows the change feed (GET /v1/changes, long polls) and POSTs each event the credential may see to URL as',
      'exactly the request a signed webhook subscription sends (docs/webhooks.md): the same JSON body and headers',
      '(webhook-id, webhook-timestamp, webhook-signature, webhook-sequence), signed with a local secret printed at',
      "start as `Signing secret: whsec_…`. Verify with it as with a subscription's: no public URL is needed.",
      'One line per forward on stdout: event type, event id, HTTP status or failure, milliseconds (JSON in a pipe).',
      'A failed forward (receiver down, non-2xx) is printed and listen goes on; it is not retried.',
      '',
      '  --forward-to URL     the receiver, http or https (e.g. http://localhost:3000/webhooks)',
      '  --events a,b         only these event types (GET /v1/event-catalog); default every event',
      '  --from-cursor C      start after this change-feed cursor (meta.nextCursor) instead of the saved position',
      '',
      'The secret is kept per profile, and so is the position in the feed: a restart resumes after the last event',
      'forwarded (none twice, none missed); the first run starts from now. Both live in',
      '$XDG_CONFIG_HOME/workcell/listen.json (~/.config/…), readable only by you. Ctrl-C stops (exit 0).',
      'Needs changes:read, and events:read to check --events.',
    ],
  },
  help: {
    usage: 'workcell help [command|operationId]',
    summary: 'help for a command or an operation',
    details: [],
  },
} as const satisfies Record<string, { usage: string; summary: string; details: readonly string[] }>;

export type CommandName = keyof typeof COMMANDS;

export const USAGE = [
  'usage: workcell <command> [options]',
  '',
  'Commands:',
  ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(11)} ${command.summary}`),
  '',
  'Options for every command: --profile P (a stored login other than "default"), --json, --help, --version.',
  '',
  'Credentials: WORKCELL_TOKEN (with WORKCELL_BASE_URL) wins over the stored login. Unattended use (no terminal, or',
  'CI set) requires a service-account credential in WORKCELL_TOKEN. The CLI never opens a browser.',
  '`workcell help <command>` says more.',
].join('\n');

export function commandHelp(name: CommandName): string[] {
  const command = COMMANDS[name];
  return [`usage: ${command.usage}`, '', `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`, ...(command.details.length ? ['', ...command.details] : [])];
}
