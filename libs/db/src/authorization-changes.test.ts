import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * API instances keep verified credentials in memory and trust them while their workspace's authorization epoch is
 * unchanged (Database.changeAuthorization), so every data-layer function that changes who may do what must run
 * inside an authorization change. At run time such functions call assertChangingAuthorization (or open their
 * transaction with inAuthorizationTransaction / inPermissionTransaction); this test reads the library's sources and
 * finds any function that writes authorization state without one of them, so a new write cannot slip past.
 */

const here = dirname(fileURLToPath(import.meta.url));
// dist -> src of this library
const src = join(here, '..', 'src');

/** Writes that change what an existing credential may do (creating a new credential, token, role or account does not). */
const AUTHORIZATION_WRITES = [
  /\.(credential|teamToken|workspaceMember|role|serviceAccount|workspace|credentialLookup)\.(update|updateMany|delete|deleteMany|upsert)\(/,
  /\.(memberRole|resourceGrant|groupMember|projectAccessEntry)\.(create|createMany|update|updateMany|delete|deleteMany|upsert)\(/,
  // A group's archival drops what its access-control entries gave its members (visibility.ts).
  /\.group\.updateMany\(\{ where: \{ workspaceId, id, archivedAt: null \}/,
  /\b(UPDATE|DELETE FROM|INSERT INTO)\s+"?(credentials|team_tokens|workspace_members|roles|member_roles|resource_grants|service_accounts|workspaces|credential_lookups)\b/i,
];
const GUARDS = ['assertChangingAuthorization(', 'inAuthorizationTransaction(', 'inPermissionTransaction(', 'changeAuthorization('];
/**
 * Writes that change no authorization: a credential's or token's last use; a workspace's name (workspace-settings);
 * the demo workspace's first seeding and the founding of any new workspace (foundWorkspace, its first administrator's
 * membership and role), before any of its credentials exist (refreshDemoTokens, which grants again to a running
 * workspace, is an authorization change).
 */
const EXEMPT = new Set(['touchCredential', 'touchTeamToken', 'updateWorkspaceSettingsIfRevision', 'seedDemoWorkspaceIfEmpty', 'grantDemoAccess', 'foundWorkspace']);

function functionsOf(text: string): { name: string; body: string }[] {
  const starts = [...text.matchAll(/^(?:export )?(?:async )?function (\w+)/gm)];
  return starts.map((match, i) => ({ name: match[1]!, body: text.slice(match.index, starts[i + 1]?.index ?? text.length) }));
}

describe('authorization changes', () => {
  it('every data-layer function that changes authorization state runs inside an authorization change', () => {
    const unguarded: string[] = [];
    let writers = 0;
    for (const file of readdirSync(src).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      for (const fn of functionsOf(readFileSync(join(src, file), 'utf8'))) {
        if (!AUTHORIZATION_WRITES.some((write) => write.test(fn.body))) continue;
        writers++;
        if (EXEMPT.has(fn.name)) continue;
        if (!GUARDS.some((guard) => fn.body.includes(guard))) unguarded.push(`${file}: ${fn.name}`);
      }
    }
    assert.ok(writers >= 10, `found only ${writers} writers: the patterns no longer match the code`);
    assert.deepEqual(unguarded, []);
  });
});
