import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where `workcell login` keeps a profile's personal credential. */
export interface CredentialStore {
  /** Said to the user: where the login is kept. */
  readonly description: string;
  get(profile: string): Promise<StoredLogin | null>;
  set(profile: string, login: StoredLogin): Promise<void>;
  /** True when something was removed. */
  delete(profile: string): Promise<boolean>;
}

export interface StoredLogin {
  readonly credential: string;
  readonly baseUrl: string;
}

/** The store cannot be used on this machine (no Secret Service, a locked keychain, no native binding). */
export class CredentialStoreUnavailable extends Error {}

const SERVICE = 'workcell-cli';

/**
 * The keyring's errors carry a Rust backtrace after their first line ("Couldn't access platform storage:
 * AccessDenied\n\nCaused by: …\n\nStack backtrace: …"): keep the sentence, never the trace.
 */
function unavailable(error: unknown): CredentialStoreUnavailable {
  const first = String((error as Error)?.message ?? error)
    .split('\n')[0]!
    .trim();
  return new CredentialStoreUnavailable(first || 'the credential store failed', { cause: error });
}

/**
 * The OS store through the Secret Service (Linux), Keychain (macOS) or Credential Manager (Windows). The native
 * binding is loaded on first use, so a platform without one fails with CredentialStoreUnavailable (and the CLI
 * says what to do instead) rather than with a module-loading trace before any command runs.
 */
export function osCredentialStore(): CredentialStore {
  const entry = async (profile: string) => {
    try {
      const { Entry } = await import('@napi-rs/keyring');
      return new Entry(SERVICE, profile);
    } catch (error) {
      throw unavailable(error);
    }
  };
  const attempt = async <T>(run: () => T): Promise<T> => {
    try {
      return run();
    } catch (error) {
      throw unavailable(error);
    }
  };
  return {
    description: "the operating system's credential store",
    async get(profile) {
      const e = await entry(profile);
      const value = await attempt(() => e.getPassword());
      return value ? (JSON.parse(value) as StoredLogin) : null;
    },
    async set(profile, login) {
      const e = await entry(profile);
      await attempt(() => e.setPassword(JSON.stringify(login)));
    },
    async delete(profile) {
      const e = await entry(profile);
      return attempt(() => e.deletePassword());
    },
  };
}

/** `$XDG_CONFIG_HOME/workcell` (default `~/.config/workcell`): where the CLI keeps what it must remember. */
function configDir(env: Readonly<Record<string, string | undefined>>): string {
  return join(env['XDG_CONFIG_HOME'] || join(homedir(), '.config'), 'workcell');
}

/** `$XDG_CONFIG_HOME/workcell/credentials.json` (default `~/.config/…`): the `--insecure-storage` file. */
export function insecureStorePath(env: Readonly<Record<string, string | undefined>>): string {
  return join(configDir(env), 'credentials.json');
}

/** `$XDG_CONFIG_HOME/workcell/listen.json`: `workcell listen`'s signing secret and feed position per profile. */
export function listenStatePath(env: Readonly<Record<string, string | undefined>>): string {
  return join(configDir(env), 'listen.json');
}

/** A JSON object the CLI keeps between runs: read whole (empty when there is none yet), written whole. */
export interface JsonFile<T extends object> {
  readonly path: string;
  read(): Promise<Partial<T>>;
  write(value: T): Promise<void>;
}

/**
 * A JSON file readable only by its owner (0600 in a 0700 directory), written whole through a rename so a crash
 * never leaves half a file. A missing file reads as `{}`; any other failure to read is thrown.
 */
export function privateJsonFile<T extends object>(path: string): JsonFile<T> {
  return {
    path,
    async read() {
      try {
        return JSON.parse(await readFile(path, 'utf8')) as Partial<T>;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
        throw new Error(`${path} cannot be read: ${(error as Error).message.split('\n')[0]}`, { cause: error });
      }
    },
    async write(value) {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, path);
    },
  };
}

type Profiles = Record<string, StoredLogin>;

/**
 * `login --insecure-storage`, for machines without a usable OS store (servers, containers): a private JSON file
 * (privateJsonFile). Like `gh auth login --insecure-storage`: the token is on disk in clear text, and the CLI says so.
 */
export function fileCredentialStore(path: string): CredentialStore {
  const file = privateJsonFile<Profiles>(path);
  const read = async (): Promise<Partial<Profiles>> => {
    try {
      return await file.read();
    } catch (error) {
      throw new CredentialStoreUnavailable((error as Error).message, { cause: error });
    }
  };
  return {
    description: `${path} (clear text, readable only by you)`,
    async get(profile) {
      return (await read())[profile] ?? null;
    },
    async set(profile, login) {
      await file.write({ ...(await read()), [profile]: login } as Profiles);
    },
    async delete(profile) {
      const profiles = await read();
      if (!(profile in profiles)) return false;
      delete profiles[profile];
      await file.write(profiles as Profiles);
      return true;
    },
  };
}

/** A JsonFile in memory, for tests of everything but the file itself. */
export function memoryJsonFile<T extends object>(initial: Partial<T> = {}): JsonFile<T> & { value: Partial<T> } {
  return {
    path: 'memory',
    value: structuredClone(initial),
    async read() {
      return structuredClone(this.value);
    },
    async write(value) {
      this.value = structuredClone(value);
    },
  };
}

/** A store in memory, for tests of everything but the stores themselves. */
export function memoryCredentialStore(options: { unavailable?: string } = {}): CredentialStore & { readonly entries: Map<string, StoredLogin> } {
  const entries = new Map<string, StoredLogin>();
  const check = () => {
    if (options.unavailable) throw new CredentialStoreUnavailable(options.unavailable);
  };
  return {
    entries,
    description: 'memory',
    get: async (profile) => (check(), entries.get(profile) ?? null),
    set: async (profile, login) => (check(), void entries.set(profile, login)),
    delete: async (profile) => (check(), entries.delete(profile)),
  };
}
