import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '@workcell/config';
import { createDatabase, refreshDemoTokens, seedDemoWorkspaceIfEmpty } from '@workcell/db';

/**
 * Seeds the demo workspace into an empty database and prints its tokens (shown once: only verifiers are stored).
 *   --refresh-demo-tokens  on an already-seeded database, revoke the earlier demo tokens and mint new ones
 *   --json                 print {"seeded": bool, "tokens": {...} | null} for scripts
 */
const { values } = parseArgs({ options: { 'refresh-demo-tokens': { type: 'boolean' }, json: { type: 'boolean' } } });
const config = loadConfigOrExit();
const database = createDatabase(config, { poolSize: 2 });
try {
  let seeded = true;
  let tokens = await seedDemoWorkspaceIfEmpty(database, config);
  if (!tokens && values['refresh-demo-tokens']) {
    seeded = false;
    tokens = await refreshDemoTokens(database, config);
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ seeded: seeded && tokens !== null, tokens })}\n`);
  } else if (tokens) {
    process.stdout.write(
      [
        seeded ? 'Seeded the demo workspace. Tokens are shown once:' : 'Minted new demo tokens (the earlier ones are revoked):',
        `  workspace id               ${tokens.workspaceId}`,
        `  v0 team token              ${tokens.v0TeamToken}`,
        `  v1 personal access token   ${tokens.personalAccessToken}`,
        `  v1 service-account token   ${tokens.serviceAccountCredential}`,
        `  calendar feed token        ${tokens.calendarFeedToken}`,
        '',
      ].join('\n'),
    );
  } else {
    process.stdout.write('The database already has workspaces; nothing seeded (use --refresh-demo-tokens for new demo tokens).\n');
  }
} catch (error) {
  process.stderr.write(`seed failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await database.close();
}
