import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfigOrExit } from '@workcell/config';
import { createDatabase, createWorkspace } from '@workcell/db';
import { Email, Name } from '@workcell/registry';

const USAGE = `usage: npm run workspace:create -- --name NAME --admin-email EMAIL --admin-name NAME [--token-expires-in-days N] [--json]

Creates a workspace of this cell (REGION/CELL) with its first administrator (the built-in Owner role: every
permission) and prints the administrator's first personal access token (every scope) once. Everything else
(members, invitations, service accounts, more tokens) is then done through the API with that token.`;

const Arguments = z.object({
  name: Name,
  'admin-email': Email,
  'admin-name': Name,
  'token-expires-in-days': z.coerce.number().int().min(1).max(3650).optional(),
});

const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    'admin-email': { type: 'string' },
    'admin-name': { type: 'string' },
    'token-expires-in-days': { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const parsed = Arguments.safeParse(values);
if (!parsed.success) {
  for (const issue of parsed.error.issues) process.stderr.write(`workspace:create: --${issue.path.join('.')}: ${issue.message}\n`);
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const input = parsed.data;
const config = loadConfigOrExit();
const database = createDatabase(config, { poolSize: 2 });
try {
  const days = input['token-expires-in-days'];
  const created = await createWorkspace(
    database,
    config,
    { name: input.name, administrator: { email: input['admin-email'], name: input['admin-name'] } },
    days === undefined ? null : new Date(Date.now() + days * 24 * 3600 * 1000),
  );
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ workspaceId: created.workspaceId, administratorMemberId: created.administratorMemberId, personalAccessToken: created.personalAccessToken, region: config.region, cell: config.cell })}\n`,
    );
  } else {
    process.stdout.write(
      [
        `Created workspace "${input.name}" (${created.workspaceId}) in ${config.region}/${config.cell}.`,
        `First administrator: ${input['admin-name']} <${input['admin-email']}> (member ${created.administratorMemberId}, role Owner).`,
        '',
        'Their personal access token, shown this once (only a verifier is stored):',
        `  ${created.personalAccessToken}`,
        '',
        `Use it: workcell login --base-url ${config.baseUrls.v1}   (or WORKCELL_TOKEN for a script)`,
        '',
      ].join('\n'),
    );
  }
} catch (error) {
  process.stderr.write(`workspace:create failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await database.close();
}
