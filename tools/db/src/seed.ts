import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '@workcell/config';
import { createDatabase, type DemoTokens, demoTokensStillActive, refreshDemoTokens, seedDemoWorkspaceIfEmpty } from '@workcell/db';

/**
 * Seeds the demo workspace into an empty database and prints its tokens (shown once: only verifiers are stored).
 *   --refresh-demo-tokens     on an already-seeded database, revoke the earlier demo tokens and mint new ones
 *   --keep-demo-tokens FILE   reuse the demo tokens saved in FILE while they all still work (so a CLI login made
 *                             with them survives `npm start`); otherwise mint new ones as above and save them there
 *                             (a development convenience: FILE holds the tokens in clear text, mode 0600)
 *   --json                    print {"seeded": bool, "kept": bool, "tokens": {...} | null} for scripts
 */
const { values } = parseArgs({ options: { 'refresh-demo-tokens': { type: 'boolean' }, 'keep-demo-tokens': { type: 'string' }, json: { type: 'boolean' } } });
const config = loadConfigOrExit();
const database = createDatabase(config, { poolSize: 2 });
const keepFile = values['keep-demo-tokens'];

async function savedTokens(file: string): Promise<DemoTokens | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as DemoTokens;
  } catch {
    return null;
  }
}

async function save(file: string, tokens: DemoTokens): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(tokens, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}

try {
  let seeded = true;
  let kept = false;
  let tokens = await seedDemoWorkspaceIfEmpty(database, config);
  if (!tokens && keepFile) {
    const saved = await savedTokens(keepFile);
    if (saved && (await demoTokensStillActive(database, config, saved))) {
      [seeded, kept, tokens] = [false, true, saved];
    }
  }
  if (!tokens && (values['refresh-demo-tokens'] || keepFile)) {
    seeded = false;
    tokens = await refreshDemoTokens(database, config);
  }
  if (tokens && keepFile && !kept) await save(keepFile, tokens);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ seeded: seeded && tokens !== null, kept, tokens })}\n`);
  } else if (tokens) {
    process.stdout.write(
      [
        kept ? 'Kept the demo tokens (they still work):' : seeded ? 'Seeded the demo workspace. Tokens are shown once:' : 'Minted new demo tokens (the earlier ones are revoked):',
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
