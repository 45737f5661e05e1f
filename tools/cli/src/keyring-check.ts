import { osCredentialStore } from './store.js';

/**
 * Run by keyring.test.ts inside a private D-Bus session with its own unlocked GNOME keyring: stores, reads back
 * and deletes a login through the real OS store, printing what it saw as one JSON line.
 */
const store = osCredentialStore();
const profile = `check-${process.pid}`;
const login = { credential: 'svc_pat_v2_eu1_c1_example', baseUrl: 'https://api.test' };
await store.set(profile, login);
const read = await store.get(profile);
const deleted = await store.delete(profile);
const after = await store.get(profile);
process.stdout.write(`${JSON.stringify({ read, deleted, after })}\n`);
